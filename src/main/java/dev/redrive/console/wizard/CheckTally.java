package dev.redrive.console.wizard;

import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.precondition.PreconditionId;
import dev.redrive.triage.precondition.PreconditionResult;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One precondition over a batch: how many items it blocks, what it found on them, and what those items can still get.
 *
 * @param found        what the check found, with counts: "run cancelled ×3"
 * @param stillPossible what the blocked items can still get, with counts: "discard 3, resolve 1"
 */
public record CheckTally(PreconditionId check, int blocked, String found, String stillPossible) {

    /** A tally for every check that blocks at least one of the items, in the checks' order. */
    static List<CheckTally> of(List<WizardItem> items) {
        List<CheckTally> tallies = new ArrayList<>();
        for (PreconditionId check : PreconditionId.values()) {
            List<WizardItem> blocked = items.stream().filter(item -> failed(item, check) != null).toList();
            if (blocked.isEmpty()) {
                continue;
            }
            Map<String, Long> found = blocked.stream().collect(Collectors.groupingBy(item -> failed(item, check).found(),
                    LinkedHashMap::new, Collectors.counting()));
            String possible = Arrays.stream(DecisionKind.values()).map(kind -> {
                long count = blocked.stream().filter(item -> item.allows(kind)).count();
                return count == 0 ? null : kind.name().toLowerCase(Locale.ROOT) + " " + count;
            }).filter(text -> text != null).collect(Collectors.joining(", "));
            tallies.add(new CheckTally(check, blocked.size(), found.entrySet().stream()
                    .map(e -> e.getKey() + (blocked.size() == 1 ? "" : " ×" + e.getValue()))
                    .collect(Collectors.joining(", ")), possible.isEmpty() ? "no decision" : possible));
        }
        return tallies;
    }

    private static PreconditionResult failed(WizardItem item, PreconditionId check) {
        return item.reportProperty().get() == null ? null
                : item.reportProperty().get().failed().stream().filter(r -> r.id() == check).findFirst().orElse(null);
    }

    /** "run is active blocks 3 (run cancelled ×3): they can still get discard 3". */
    public String line() {
        return check.title() + " blocks " + blocked + " (" + found + "): " + (blocked == 1 ? "it" : "they")
                + " can still get " + stillPossible;
    }
}
