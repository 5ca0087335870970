package dev.redrive.triage.query;

import dev.redrive.model.DecisionState;
import dev.redrive.model.FailureClass;
import dev.redrive.model.SideEffectState;

import java.time.Instant;

/**
 * One DLQ entry as a list shows it. {@code version} is what the operator saw: a decision taken from this row is
 * refused if the entry changed since.
 *
 * @param ownEntry whether the worker entered this for the dead-lettered attempt of {@code operationId}; false for a
 *                 message dead-lettered as itself, whose {@code operationId} (if any) is only what it claimed
 */
public record DlqRow(
        long id,
        String operationId,
        String runId,
        String nodeId,
        String tool,
        FailureClass errorClass,
        String errorMessage,
        String fingerprint,
        SideEffectState sideEffect,
        DecisionState decisionState,
        Instant enteredAt,
        Integer attempt,
        String traceId,
        String correlationId,
        int version,
        boolean ownEntry) {

    /** The cursor that points at this row. */
    public DlqCursor cursor() {
        return new DlqCursor(enteredAt, id);
    }
}
