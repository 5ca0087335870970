package dev.redrive.triage.decision.durable;

/**
 * A batch this process may not run: another process holds it, it is done, or it was stopped or taken over while this
 * process ran it (the chunk in flight is then rolled back). The message is one line for the operator.
 */
public final class BatchHeldException extends RuntimeException {
    public BatchHeldException(String message) {
        super(message);
    }
}
