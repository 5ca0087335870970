package dev.redrive.demo.sandbox;

import dev.redrive.demo.tools.DemoTool;
import dev.redrive.identity.OperationId;

/** One operation the sandbox dispatches: its identity, the tool it calls and the payload (with its fault list). */
public record PlannedOperation(OperationId id, DemoTool tool, String toolSchemaVersion, String payload,
                               String traceId, String correlationId, String approvalId) {
}
