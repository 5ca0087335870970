package dev.redrive.triage.decision;

import dev.redrive.triage.precondition.PreconditionId;
import dev.redrive.triage.precondition.PreconditionReport;
import dev.redrive.triage.precondition.PreconditionResult;

import java.util.EnumMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Which decisions one entry can still get, judged from its precondition report, and why not for the others. A redrive
 * needs every check; a resolve an open entry whose side effect was reconciled APPLIED with a result; a discard only an
 * open entry. So a blocked redrive is rarely a dead end: a cancelled run can still be discarded, an applied effect
 * resolved. An entry without an operation of its own is never redriven, and is resolved or discarded while open. A
 * correction is allowed where a redrive is.
 */
public final class DecisionChoices {
    private final Map<DecisionKind, String> whyNot;

    private DecisionChoices(Map<DecisionKind, String> whyNot) {
        this.whyNot = whyNot;
    }

    public static DecisionChoices of(PreconditionReport report) {
        Map<DecisionKind, String> whyNot = new EnumMap<>(DecisionKind.class);
        boolean entryAlone = report.operationId() == null;
        if (entryAlone) {
            whyNot.put(DecisionKind.REDRIVE, "no operation of its own: nothing was recorded to run again");
        } else if (!report.allPassed()) {
            whyNot.put(DecisionKind.REDRIVE, "blocked by " + report.failed().stream().map(PreconditionResult::found)
                    .collect(Collectors.joining(", ")));
        }
        if (whyNot.containsKey(DecisionKind.REDRIVE)) {
            // A correction is a redrive with another payload: the same checks allow it (the payload's own check comes
            // with the payload).
            whyNot.put(DecisionKind.CORRECT, whyNot.get(DecisionKind.REDRIVE));
        }
        PreconditionResult entry = report.result(PreconditionId.ENTRY_OPEN);
        if (!entry.passed()) {
            whyNot.put(DecisionKind.DISCARD, entry.found());
            whyNot.put(DecisionKind.RESOLVE, entry.found());
        } else if (!entryAlone) {
            // An entry alone is resolved without a result: nothing ran, so there is none to record.
            String resolve = whyNoResolve(report.result(PreconditionId.SIDE_EFFECT));
            if (resolve != null) {
                whyNot.put(DecisionKind.RESOLVE, resolve);
            }
        }
        return new DecisionChoices(whyNot);
    }

    private static String whyNoResolve(PreconditionResult sideEffect) {
        Map<String, Object> facts = sideEffect.facts();
        if (!"APPLIED".equals(facts.get("side_effect"))) {
            return "nothing shows the effect was applied (side effect " + facts.get("side_effect") + ")";
        }
        if (!Boolean.TRUE.equals(facts.get("result_recorded"))) {
            return "the APPLIED reconciliation recorded no result to resolve with (record it again with the tool's result)";
        }
        return null;
    }

    public boolean allows(DecisionKind kind) {
        return !whyNot.containsKey(kind);
    }

    /** Why {@code kind} cannot be taken, in a few words; null when it can. */
    public String whyNot(DecisionKind kind) {
        return whyNot.get(kind);
    }

    public boolean allowsAny() {
        return whyNot.size() < DecisionKind.values().length;
    }
}
