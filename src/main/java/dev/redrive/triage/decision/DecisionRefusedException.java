package dev.redrive.triage.decision;

/**
 * A decision refused inside its transaction because someone else's decision came first (the guarded row changed, or
 * the operation was decided already), so everything is rolled back. Public so that a front end can tell it from a
 * failure: the command line exits with its "blocked" code.
 */
public final class DecisionRefusedException extends RuntimeException {
    private final DecisionOutcome outcome;

    DecisionRefusedException(DecisionOutcome outcome, String message) {
        super(message);
        this.outcome = outcome;
    }

    DecisionOutcome outcome() {
        return outcome;
    }
}
