package dev.redrive.triage.decision;

import dev.redrive.store.Database;
import dev.redrive.store.StoreException;
import dev.redrive.triage.precondition.DecisionTarget;

import java.util.ArrayList;
import java.util.List;

/**
 * What the items of a chunk whose transaction failed are told, after its rollback: each is checked again as a dry run
 * would, and an item that would pass now says why it was not decided.
 */
final class FailedChunks {
    private final Database database;

    FailedChunks(Database database) {
        this.database = database;
    }

    /** Decides (or checks) the items of a chunk again. */
    @FunctionalInterface
    interface Redo {
        List<DecisionResult> decide(List<DecisionTarget> chunk);
    }

    /**
     * A guarded write found a row changed although the chunk held its locks (a writer that does not lock first). The
     * chunk was rolled back: a chunk of many is decided again item by item, so only the changed item loses; a single
     * item is told what the store now says.
     */
    List<DecisionResult> lostRace(DecisionKind kind, List<DecisionTarget> targets, DecisionRefusedException e,
                                  Redo redo, Redo recheck) {
        if (targets.size() > 1) {
            List<DecisionResult> results = new ArrayList<>(targets.size());
            for (DecisionTarget target : targets) {
                results.addAll(redo.decide(List.of(target)));
            }
            return results;
        }
        return notTaken(kind, recheck.decide(targets), e.outcome(), e.getMessage());
    }

    /**
     * A role without the grants (or a guard in the database) refused the writes: the items that fail a check say so as
     * they would have, the others are REFUSED with the role and what it lacks. Anything else is rethrown.
     */
    List<DecisionResult> refusedByStore(DecisionKind kind, List<DecisionTarget> targets, StoreException e,
                                        Redo recheck) {
        if (!e.isRefused()) {
            throw e;
        }
        String why = "refused by the database: " + DecisionAccess.whyRefused(database, e);
        return notTaken(kind, recheck.decide(targets), DecisionOutcome.REFUSED, why);
    }

    /** The items that would pass now, as not taken for {@code why}; the others as their check says. */
    private static List<DecisionResult> notTaken(DecisionKind kind, List<DecisionResult> now, DecisionOutcome outcome,
                                                 String why) {
        return now.stream().map(item -> item.outcome() == DecisionOutcome.WOULD_PASS
                ? new DecisionResult(kind, outcome, item.operationId(), item.dlqEntryId(), why, item.preconditions(),
                null, null, null, null)
                : item).toList();
    }
}
