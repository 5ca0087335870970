package dev.redrive.store.reconciliation;

/** Who established a reconciliation outcome. */
public enum ReconciliationSource {
    /** The tool's own look-up by idempotency key. */
    TOOL,
    /** An operator, with evidence text. */
    OPERATOR,
    /** The worker, while handling an unknown side effect. */
    WORKER
}
