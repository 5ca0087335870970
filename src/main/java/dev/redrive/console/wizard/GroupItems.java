package dev.redrive.console.wizard;

import dev.redrive.model.DecisionState;
import dev.redrive.triage.query.DlqFilter;
import dev.redrive.triage.query.DlqPage;
import dev.redrive.triage.query.DlqQueries;
import dev.redrive.triage.query.PageDirection;

import java.util.ArrayList;
import java.util.List;

/**
 * The open entries of a fingerprint group as wizard items, each at the version it has now; an entry without an
 * operation of its own is an item that can only be discarded or resolved. Runs off the FX thread.
 */
public final class GroupItems {
    private static final int PAGE = 500;

    private GroupItems() {
    }

    public static List<WizardItem> open(DlqQueries queries, String fingerprint, int limit) {
        DlqFilter filter = DlqFilter.builder().fingerprint(fingerprint).decisionState(DecisionState.OPEN).build();
        List<WizardItem> items = new ArrayList<>();
        DlqPage page = queries.firstPage(filter, Math.min(PAGE, limit));
        while (true) {
            page.rows().stream().limit(limit - items.size())
                    .forEach(row -> items.add(WizardItem.of(row)));
            if (!page.hasNext() || items.size() >= limit) {
                return items;
            }
            page = queries.page(filter, page.next(), PageDirection.NEXT, Math.min(PAGE, limit - items.size()));
        }
    }
}
