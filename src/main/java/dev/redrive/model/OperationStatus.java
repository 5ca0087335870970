package dev.redrive.model;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Where an operation stands. {@link #allowedNext()} is the one table of allowed transitions; the store refuses any
 * other change.
 */
public enum OperationStatus {
    /** Recorded by the publishing side, waiting for a worker. */
    PENDING,
    /** A worker holds the lease. */
    RUNNING,
    /** Failed with a retryable class; next_eligible_at says when. */
    RETRY_SCHEDULED,
    SUCCEEDED,
    /** In the DLQ, waiting for an operator's decision. */
    DEAD_LETTERED,
    /** An operator discarded it from the DLQ, or cancelled its scheduled retry. */
    DISCARDED,
    /** Its run was cancelled or ended before it could run. */
    CANCELLED,
    /** An operator replaced it by a correction (the node's next logical attempt); it never runs again. */
    SUPERSEDED;

    private static final TransitionTable<OperationStatus> TRANSITIONS = new TransitionTable<>("operation",
            OperationStatus.class, Map.of(
            PENDING, EnumSet.of(RUNNING, RETRY_SCHEDULED, SUCCEEDED, DEAD_LETTERED, CANCELLED),
            RUNNING, EnumSet.of(RUNNING, SUCCEEDED, RETRY_SCHEDULED, DEAD_LETTERED, CANCELLED),
            // DISCARDED: an operator cancelled the retry (SUCCEEDED too, when she resolves it with a result).
            RETRY_SCHEDULED, EnumSet.of(RUNNING, RETRY_SCHEDULED, SUCCEEDED, DEAD_LETTERED, DISCARDED, CANCELLED),
            DEAD_LETTERED, EnumSet.of(PENDING, SUCCEEDED, DISCARDED, SUPERSEDED),
            SUCCEEDED, EnumSet.noneOf(OperationStatus.class),
            DISCARDED, EnumSet.noneOf(OperationStatus.class),
            CANCELLED, EnumSet.noneOf(OperationStatus.class),
            SUPERSEDED, EnumSet.noneOf(OperationStatus.class)));

    public Set<OperationStatus> allowedNext() {
        return TRANSITIONS.allowedNext(this);
    }

    public boolean canBecome(OperationStatus next) {
        return TRANSITIONS.allows(this, next);
    }

    public boolean isTerminal() {
        return allowedNext().isEmpty();
    }

    /** Every status that may change into {@code next}: the guard an UPDATE puts in its WHERE clause. */
    public static String[] allowedBefore(OperationStatus next) {
        return TRANSITIONS.allowedBefore(next);
    }

    /** Throws when a change is not in the table; the message names both states. */
    public void checkTransition(OperationStatus next) {
        TRANSITIONS.check(this, next);
    }
}
