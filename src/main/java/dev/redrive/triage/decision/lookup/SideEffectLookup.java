package dev.redrive.triage.decision.lookup;

import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.worker.tool.EffectCount;

/**
 * A tool's own answers about its effects, asked by idempotency key: whether an effect was applied (reconciliation) and
 * how many were (verification after a redrive).
 */
@FunctionalInterface
public interface SideEffectLookup {
    /** Never throws for an unreachable or confused tool: that is an {@code UNKNOWN} answer with the reason. */
    LookupAnswer lookUp(String tool, String idempotencyKey);

    /** Never throws either; a tool that cannot count makes the verification "not verifiable for this tool". */
    default EffectCount countEffects(String tool, String idempotencyKey) {
        return EffectCount.notCountable("no effect count is configured for " + tool);
    }

    /** Asks no tool: every look-up is UNKNOWN and nothing is counted. */
    static SideEffectLookup none() {
        return (tool, idempotencyKey) -> new LookupAnswer(ReconciliationOutcome.UNKNOWN, null,
                "no reconciliation look-up is configured for " + tool);
    }
}
