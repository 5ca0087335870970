package dev.redrive.triage.decision.batch;

import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.precondition.PreconditionId;
import dev.redrive.triage.precondition.PreconditionResult;

import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** Every item's result of one batch decision, in the order the items were given. */
public record BatchReport(DecisionKind kind, boolean dryRun, List<DecisionResult> items) {

    public BatchReport {
        items = List.copyOf(items);
    }

    public long count(DecisionOutcome outcome) {
        return items.stream().filter(item -> item.outcome() == outcome).count();
    }

    /** How many items each precondition blocked (an item blocked by two checks counts for both). */
    public Map<PreconditionId, Long> blockedBy() {
        Map<PreconditionId, Long> counts = new EnumMap<>(PreconditionId.class);
        for (DecisionResult item : items) {
            if (item.preconditions() != null && !item.recorded() && item.outcome() != DecisionOutcome.WOULD_PASS) {
                for (PreconditionResult failed : item.preconditions().failed()) {
                    counts.merge(failed.id(), 1L, Long::sum);
                }
            }
        }
        return counts;
    }

    /** "12 items: 9 would pass, 3 blocked (side_effect 2, run_active 1)". */
    public String summary() {
        String outcomes = items.stream().collect(Collectors.groupingBy(DecisionResult::outcome, () -> new EnumMap<>(DecisionOutcome.class),
                        Collectors.counting()))
                .entrySet().stream()
                .map(entry -> entry.getValue() + " " + entry.getKey().name().toLowerCase(Locale.ROOT).replace('_', ' '))
                .collect(Collectors.joining(", "));
        Map<PreconditionId, Long> blocked = blockedBy();
        String why = blocked.isEmpty() ? "" : " (blocked by " + blocked.entrySet().stream()
                .map(entry -> entry.getKey().key() + " " + entry.getValue()).collect(Collectors.joining(", ")) + ")";
        return items.size() + " item(s)" + (dryRun ? ", dry run" : "") + ": " + (outcomes.isEmpty() ? "nothing to do" : outcomes) + why;
    }
}
