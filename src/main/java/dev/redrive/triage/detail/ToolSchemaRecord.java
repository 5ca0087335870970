package dev.redrive.triage.detail;

import java.time.Instant;

/**
 * One recorded schema version of a tool. The store keeps versions, who registered them and when; tools register no
 * field definitions, so what changed between two versions is not known here.
 */
public record ToolSchemaRecord(String tool, String version, boolean current, String registeredBy, Instant registeredAt) {
}
