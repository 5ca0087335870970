package dev.redrive.triage.decision;

/** The decisions an operator can take on a dead-lettered operation. */
public enum DecisionKind {
    /** Run it again, through an audited redrive command. */
    REDRIVE,
    /** Mark it succeeded with the reconciled result; never re-run. */
    RESOLVE,
    /** Give it up, with a reason. */
    DISCARD
}
