package dev.redrive.model;

/**
 * What an operator decided about a DLQ entry. Only OPEN entries can be decided, exactly once. SUPERSEDED: its
 * operation was replaced by a correction, the node's next logical attempt with a corrected payload.
 */
public enum DecisionState {
    OPEN, REDRIVEN, RESOLVED, DISCARDED, SUPERSEDED;

    public boolean canBecome(DecisionState next) {
        return this == OPEN && next != OPEN;
    }

    public void checkTransition(DecisionState next) {
        if (!canBecome(next)) {
            throw new IllegalStateTransitionException("DLQ entry", name(), next.name());
        }
    }
}
