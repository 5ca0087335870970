package dev.redrive.cli;

import dev.redrive.store.Database;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.detail.OperationDetailsLoader;
import dev.redrive.triage.detail.UnknownOperationException;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.precondition.PreconditionId;

import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * An operation id decides only the operation's own entry. When it finds none open (or no operation at all) while
 * entries that merely name it are open, the operator most likely meant one of those: the line names their ids and
 * {@code --entry ID}, instead of leaving them to guess why "no DLQ entry" when {@code dlq list} shows some.
 */
final class EntriesNamingHint {
    private static final int SHOWN = 5;

    private EntriesNamingHint() {
    }

    /** Takes the decision; a refusal (or an unknown operation) for want of an own entry gets the hint. */
    static DecisionResult decide(Database database, DecisionTarget target, Supplier<DecisionResult> decision) {
        if (target.operationId() == null || target.dlqEntryId() != null) {
            return decision.get();
        }
        DecisionResult result;
        try {
            result = decision.get();
        } catch (UnknownOperationException e) {
            throw withHint(database, target.operationId(), e, "decide");
        }
        boolean noOwnOpenEntry = !result.recorded() && result.preconditions() != null
                && !result.preconditions().result(PreconditionId.ENTRY_OPEN).passed();
        String hint = noOwnOpenEntry ? hint(database, target.operationId(), "decide") : "";
        return hint.isEmpty() ? result : result.withMessage(result.message() + hint);
    }

    /** An unknown operation's failure, with the open entries that name it when there are any. */
    static IllegalArgumentException withHint(Database database, String operationId, UnknownOperationException unknown,
                                             String verb) {
        String hint = hint(database, operationId, verb);
        return hint.isEmpty() ? unknown : new IllegalArgumentException(unknown.getMessage() + hint, unknown);
    }

    /** "; open entries that only name it: 12, 14; decide them with --entry ID", or empty when there are none. */
    private static String hint(Database database, String operationId, String verb) {
        List<Long> naming = new OperationDetailsLoader(database).openEntriesNaming(operationId);
        if (naming.isEmpty()) {
            return "";
        }
        String ids = naming.stream().limit(SHOWN).map(String::valueOf).collect(Collectors.joining(", "))
                + (naming.size() > SHOWN ? " and " + (naming.size() - SHOWN) + " more" : "");
        return "; open entries that only name it: " + ids + "; " + verb + " them with --entry ID";
    }
}
