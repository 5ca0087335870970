package dev.redrive.triage.decision;

/** A decision the store refused inside its transaction: the guarded row changed, so everything is rolled back. */
final class DecisionRefusedException extends RuntimeException {
    private final DecisionOutcome outcome;

    DecisionRefusedException(DecisionOutcome outcome, String message) {
        super(message);
        this.outcome = outcome;
    }

    DecisionOutcome outcome() {
        return outcome;
    }
}
