package dev.redrive.triage.decision;

/** A tool's reconciliation: asks the remote system whether the effect for an idempotency key was applied. */
@FunctionalInterface
public interface SideEffectLookup {
    /** Never throws for an unreachable or confused tool: that is an {@code UNKNOWN} answer with the reason. */
    LookupAnswer lookUp(String tool, String idempotencyKey);
}
