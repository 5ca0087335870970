package dev.redrive.model;

/**
 * Whether the outside world may have been changed by an operation. APPLIED and NOT_APPLIED are only ever set by a
 * reconciliation (by the tool's look-up or an operator's recorded evidence).
 */
public enum SideEffectState {
    NONE, POSSIBLE, APPLIED, NOT_APPLIED;

    /** Re-running is safe without further reconciliation. */
    public boolean isSettledForRedrive() {
        return this == NONE || this == NOT_APPLIED;
    }
}
