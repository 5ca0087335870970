package dev.redrive.triage.decision.batch;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.model.DecisionState;
import dev.redrive.store.Jdbc;
import dev.redrive.triage.decision.ChunkCommit;
import dev.redrive.triage.decision.ChunkDecisions;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.decision.WriteTurn;
import dev.redrive.triage.detail.UnknownOperationException;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.query.DlqFilter;
import dev.redrive.triage.query.DlqPage;
import dev.redrive.triage.query.DlqQueries;
import dev.redrive.triage.query.DlqRow;
import dev.redrive.triage.query.PageDirection;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.Future;

/**
 * Decisions over many entries: a selection, a fingerprint group, or every open entry matching a DLQ filter. Items are
 * decided in chunks ({@link ChunkDecisions}): each chunk is checked and recorded in one transaction and its redrives
 * published in one round trip, and a blocked item never stops the others. A dry run checks every item and writes
 * nothing; real decisions are paced to the configured rate, and a batch stops between chunks when asked, so every item
 * is either decided with everything that goes with it or left untouched.
 */
public final class BatchDecisions {
    /** The most entries one batch takes on. */
    public static final int MAX_ITEMS = 10_000;

    /** The first of the ids, in the order given, that names no operation. */
    private static final String FIRST_UNKNOWN = """
            SELECT n.operation_id FROM unnest(?::text[]) WITH ORDINALITY AS n(operation_id, position)
             WHERE NOT EXISTS (SELECT FROM operations o WHERE o.operation_id = n.operation_id)
             ORDER BY n.position LIMIT 1
            """;

    private final ChunkDecisions chunks;
    private final Jdbc jdbc;
    private final String namespace;
    private final DlqQueries queries;
    private final Clock clock;
    private final Sleeper sleeper;

    public BatchDecisions(Decisions decisions, DlqQueries queries, Clock clock, Sleeper sleeper) {
        this.chunks = decisions.chunks();
        this.jdbc = decisions.database().jdbc();
        this.namespace = decisions.database().schema();
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
        DlqFilter open = filter.toBuilder().decisionState(DecisionState.OPEN).build();
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

    /**
     * Refuses operation ids that name no operation, before anything is decided: an operator who types a batch of ids
     * learns of a typo in one line instead of finding it among the items of a half-done batch.
     *
     * @throws UnknownOperationException naming the first unknown id
     */
    public void requireKnown(List<String> operationIds) {
        if (!operationIds.isEmpty()) {
            jdbc.queryOne(FIRST_UNKNOWN, row -> row.getString(1), (Object) operationIds.toArray(String[]::new))
                    .ifPresent(unknown -> {
                        throw new UnknownOperationException(unknown, namespace);
                    });
        }
    }

    /** The open entries of one fingerprint group. */
    public OpenEntries group(String fingerprint) {
        return openEntries(DlqFilter.builder().fingerprint(fingerprint).build());
    }

    public BatchReport redrive(List<DecisionTarget> targets, BatchOptions options, BatchListener listener) {
        return run(DecisionKind.REDRIVE, targets, options, listener, (chunk, turn) -> {
            // A version chosen for the whole batch applies to every item; without one, each keeps its own choice.
            List<DecisionTarget> chosen = options.schemaVersion() == null ? chunk
                    : chunk.stream().map(target -> target.withSchemaVersion(options.schemaVersion())).toList();
            return options.dryRun() ? chunks.checkRedrive(chosen)
                    : chunks.redrive(chosen, options.operator(), options.reason(), ChunkCommit.NONE, turn);
        });
    }

    /** Resolves each item with the given result, or each one's own APPLIED reconciliation when {@code result} is null. */
    public BatchReport resolve(List<DecisionTarget> targets, JsonNode result, BatchOptions options, BatchListener listener) {
        return decideEntries(DecisionKind.RESOLVE, targets, result, options, listener);
    }

    public BatchReport discard(List<DecisionTarget> targets, BatchOptions options, BatchListener listener) {
        return decideEntries(DecisionKind.DISCARD, targets, null, options, listener);
    }

    private BatchReport decideEntries(DecisionKind kind, List<DecisionTarget> targets, JsonNode result,
                                      BatchOptions options, BatchListener listener) {
        return run(kind, targets, options, listener, (chunk, turn) -> options.dryRun()
                ? chunks.checkEntries(kind, chunk, result)
                : chunks.decideEntries(kind, chunk, result, options.operator(), options.reason(), ChunkCommit.NONE,
                turn));
    }

    @FunctionalInterface
    private interface ChunkDecision {
        List<DecisionResult> decide(List<DecisionTarget> chunk, WriteTurn turn);
    }

    private BatchReport run(DecisionKind kind, List<DecisionTarget> targets, BatchOptions options, BatchListener listener,
                            ChunkDecision decision) {
        if (targets.size() > MAX_ITEMS) {
            throw new IllegalArgumentException("a batch takes at most " + MAX_ITEMS + " items, got " + targets.size());
        }
        if (!options.dryRun()) {
            options.requireOperatorAndReason();
        }
        int size = options.chunkSize();
        List<DecisionResult> results = new ArrayList<>(targets.size());
        try (ChunkRunner runner = new ChunkRunner(new Pacer(options.dryRun() ? 0 : options.itemsPerSecond(), clock, sleeper),
                listener)) {
            Deque<Future<List<DecisionResult>>> inFlight = new ArrayDeque<>();
            for (int from = 0; from < targets.size(); from += size) {
                List<DecisionTarget> chunk = targets.subList(from, Math.min(targets.size(), from + size));
                // Items are reported as soon as their chunk is done, before the pace is waited for and again after it,
                // and a stop asked for meanwhile (a listener may ask on seeing an item) keeps the next chunk back.
                collectDone(inFlight, runner, results, targets.size(), listener);
                if (!runner.mayStart(chunk.size())) {
                    break;
                }
                collectDone(inFlight, runner, results, targets.size(), listener);
                if (runner.stopAsked()) {
                    break;
                }
                inFlight.add(runner.start(turn -> decision.decide(chunk, turn)));
                if (inFlight.size() == ChunkRunner.IN_FLIGHT) {
                    collect(runner.results(inFlight.remove()), results, targets.size(), listener);
                }
            }
            while (!inFlight.isEmpty()) {
                collect(runner.results(inFlight.remove()), results, targets.size(), listener);
            }
        }
        return new BatchReport(kind, options.dryRun(), results);
    }

    /** Reports the chunks at the head of {@code inFlight} that are done, in batch order. */
    private static void collectDone(Deque<Future<List<DecisionResult>>> inFlight, ChunkRunner runner,
                                    List<DecisionResult> results, int total, BatchListener listener) {
        while (!inFlight.isEmpty() && inFlight.peek().isDone()) {
            collect(runner.results(inFlight.remove()), results, total, listener);
        }
    }

    private static void collect(List<DecisionResult> chunk, List<DecisionResult> results, int total,
                                BatchListener listener) {
        for (DecisionResult result : chunk) {
            results.add(result);
            listener.itemDone(results.size(), total, result);
        }
    }
}
