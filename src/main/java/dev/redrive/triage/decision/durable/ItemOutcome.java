package dev.redrive.triage.decision.durable;

import java.util.Locale;

/** What became of one item of a batch, as the facts say now (see {@link BatchOutcomes}). */
public enum ItemOutcome {
    /** A precondition blocked it; nothing was written. */
    BLOCKED,
    /** Someone else decided its entry first; the batch left it. */
    DECIDED_ELSEWHERE,
    /** The database refused the decision. */
    REFUSED,
    /** Redriven; its new attempt has not ended yet (waiting, running or waiting for a retry). */
    STILL_RUNNING,
    /** Redriven, then succeeded. */
    SUCCEEDED,
    /** Redriven, then dead-lettered again: a new DLQ entry holds the failure. */
    FAILED_AGAIN,
    /** Redriven, then ended otherwise (its run cancelled, discarded, superseded). */
    ENDED_OTHERWISE,
    RESOLVED,
    DISCARDED;

    /** "failed again", for lines. */
    public String words() {
        return name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }
}
