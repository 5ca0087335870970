package dev.redrive.store.operation;

/**
 * A run asked to change that has ended already (cancelled, say, by someone else or by the same command run twice):
 * not bad input but a state that came first, as a decision someone else took.
 */
public final class RunEndedException extends IllegalStateException {
    RunEndedException(String runId, String status) {
        super("run " + runId + " is " + status + " already: nothing to cancel");
    }
}
