package dev.redrive.triage.decision;

/** The decisions an operator can take on a dead-lettered operation. */
public enum DecisionKind {
    /** Run it again, through an audited redrive command. */
    REDRIVE,
    /** Mark it succeeded with the reconciled result; never re-run. */
    RESOLVE,
    /** Give it up, with a reason. */
    DISCARD,
    /**
     * Replace it by the node's next logical attempt with a corrected payload (its own operation id and idempotency
     * key); taken on the checks of a redrive, by {@code triage.correction.Corrections}.
     */
    CORRECT
}
