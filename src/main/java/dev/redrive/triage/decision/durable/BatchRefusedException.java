package dev.redrive.triage.decision.durable;

/**
 * A login that may look but not decide (a viewer) asked to start, resume or stop a durable batch: nothing was written.
 * The message is one line naming the role and the grants it lacks, as a viewer's refused decision says.
 */
public final class BatchRefusedException extends RuntimeException {
    BatchRefusedException(String message) {
        super(message);
    }
}
