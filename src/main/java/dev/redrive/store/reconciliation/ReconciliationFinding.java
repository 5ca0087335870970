package dev.redrive.store.reconciliation;

import java.util.Objects;

/**
 * What a reconciliation found out about an operation's side effect, as it is recorded.
 *
 * @param result     the tool's stored result when the effect was applied (JSON text), else null
 * @param recordedBy the operator, or the worker's id when the worker asked the tool
 */
public record ReconciliationFinding(ReconciliationOutcome outcome, ReconciliationSource source, String evidence,
                                    String result, String recordedBy) {
    public ReconciliationFinding {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(recordedBy, "recordedBy");
    }
}
