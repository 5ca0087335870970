package dev.redrive.triage.request;

import dev.redrive.triage.decision.DecisionKind;

/** The decisions a request can ask for: the three decisions, and correct-and-redrive. */
public enum RequestKind {
    REDRIVE,
    RESOLVE,
    DISCARD,
    /** Correct and redrive: the node's next logical attempt with a corrected payload. */
    CORRECT;

    public static RequestKind of(DecisionKind kind) {
        return valueOf(kind.name());
    }

    /** The decision it takes; null for a correction, which is not one of the three. */
    DecisionKind decision() {
        return this == CORRECT ? null : DecisionKind.valueOf(name());
    }
}
