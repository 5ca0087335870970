package dev.redrive.model;

/** How a failure is handled: the seed's classification table. Chosen from the failure's type, never its text. */
public enum FailureClass {
    /** Retry after backoff. */
    TRANSIENT(true),
    /** Retry respecting Retry-After and the tool's budget. */
    RATE_LIMITED(true),
    /** Retry later; the whole tool is deferred. */
    DEPENDENCY_DOWN(true),
    /** Terminal: never retried. */
    INVALID_INPUT(false),
    /** Terminal: needs an operator's intervention. */
    PERMISSION(false),
    /** The call may have changed the world: reconcile before anything else. */
    UNKNOWN_SIDE_EFFECT(true);

    private final boolean retryable;

    FailureClass(boolean retryable) {
        this.retryable = retryable;
    }

    public boolean isRetryable() {
        return retryable;
    }
}
