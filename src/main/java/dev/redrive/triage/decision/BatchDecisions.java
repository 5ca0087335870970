package dev.redrive.triage.decision;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.model.DecisionState;
import dev.redrive.triage.detail.UnknownEntryException;
import dev.redrive.triage.detail.UnknownOperationException;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.query.DlqFilter;
import dev.redrive.triage.query.DlqPage;
import dev.redrive.triage.query.DlqQueries;
import dev.redrive.triage.query.DlqRow;
import dev.redrive.triage.query.PageDirection;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Decisions over many entries: a selection or a whole fingerprint group. Every item is checked and decided on its
 * own (one transaction each), so one blocked item never stops the others; a dry run checks every item and writes
 * nothing; real redrives are paced to the configured rate.
 */
public final class BatchDecisions {
    /** The most entries one batch takes on. */
    public static final int MAX_ITEMS = 10_000;

    private final Decisions decisions;
    private final DlqQueries queries;
    private final Clock clock;
    private final Sleeper sleeper;

    public BatchDecisions(Decisions decisions, DlqQueries queries, Clock clock, Sleeper sleeper) {
        this.decisions = decisions;
        this.queries = queries;
        this.clock = clock;
        this.sleeper = sleeper;
    }

    /**
     * The open entries matching a filter (e.g. one fingerprint group), newest first, as the operator sees them now:
     * operations' own entries as targets. A message dead-lettered as itself is decided by its entry id, even when it
     * names an operation (deciding the operation for it would decide the wrong entry): it is left out, and counted.
     */
    public OpenEntries openEntries(DlqFilter filter) {
        DlqFilter open = filter.withDecisionState(DecisionState.OPEN);
        List<DecisionTarget> targets = new ArrayList<>();
        List<Long> withoutOperation = new ArrayList<>();
        DlqPage page = queries.firstPage(open, 500);
        while (true) {
            for (DlqRow row : page.rows()) {
                if (!row.ownEntry()) {
                    withoutOperation.add(row.id());
                } else if (targets.size() < MAX_ITEMS) {
                    targets.add(DecisionTarget.of(row));
                }
            }
            if (!page.hasNext() || targets.size() >= MAX_ITEMS) {
                return new OpenEntries(targets, withoutOperation);
            }
            page = queries.page(open, page.next(), PageDirection.NEXT, 500);
        }
    }

    /** The open entries of one fingerprint group. */
    public OpenEntries group(String fingerprint) {
        return openEntries(DlqFilter.none().withFingerprint(fingerprint));
    }

    public BatchReport redrive(List<DecisionTarget> targets, BatchOptions options, BatchListener listener) {
        return run(DecisionKind.REDRIVE, targets, options, listener, target -> {
            DecisionTarget chosen = target.withSchemaVersion(options.schemaVersion());
            return options.dryRun() ? decisions.checkRedrive(chosen) : decisions.redrive(chosen, options.operator(), options.reason());
        });
    }

    /** Resolves each item with the given result, or each one's own APPLIED reconciliation when {@code result} is null. */
    public BatchReport resolve(List<DecisionTarget> targets, JsonNode result, BatchOptions options, BatchListener listener) {
        return run(DecisionKind.RESOLVE, targets, options, listener, target -> options.dryRun()
                ? decisions.checkResolve(target, result)
                : decisions.resolve(target, result, options.operator(), options.reason()));
    }

    public BatchReport discard(List<DecisionTarget> targets, BatchOptions options, BatchListener listener) {
        return run(DecisionKind.DISCARD, targets, options, listener, target -> options.dryRun()
                ? decisions.checkDiscard(target)
                : decisions.discard(target, options.operator(), options.reason()));
    }

    @FunctionalInterface
    private interface ItemDecision {
        DecisionResult decide(DecisionTarget target);
    }

    private BatchReport run(DecisionKind kind, List<DecisionTarget> targets, BatchOptions options, BatchListener listener,
                            ItemDecision decision) {
        if (targets.size() > MAX_ITEMS) {
            throw new IllegalArgumentException("a batch takes at most " + MAX_ITEMS + " items, got " + targets.size());
        }
        if (!options.dryRun()) {
            requireText(options.operator(), "a batch decision needs the operator's name");
            requireText(options.reason(), "a batch decision needs a reason");
        }
        Pacer pacer = new Pacer(options.dryRun() ? 0 : options.itemsPerSecond(), clock, sleeper);
        List<DecisionResult> results = new ArrayList<>();
        for (DecisionTarget target : targets) {
            try {
                pacer.awaitSlot();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            DecisionResult result;
            try {
                result = decision.decide(target);
            } catch (UnknownOperationException | UnknownEntryException e) {
                result = new DecisionResult(kind, DecisionOutcome.BLOCKED, target.operationId(), target.dlqEntryId(),
                        e.getMessage(), null, null, null, null, null);
            }
            results.add(result);
            listener.itemDone(results.size(), targets.size(), result);
        }
        return new BatchReport(kind, options.dryRun(), results);
    }

    private static void requireText(String value, String message) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(message);
        }
    }
}
