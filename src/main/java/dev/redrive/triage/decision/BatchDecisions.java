package dev.redrive.triage.decision;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.model.DecisionState;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.query.DlqFilter;
import dev.redrive.triage.query.DlqPage;
import dev.redrive.triage.query.DlqQueries;
import dev.redrive.triage.query.DlqRow;
import dev.redrive.triage.query.PageDirection;
import io.opentelemetry.context.Context;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
    /** Items checked and recorded in one transaction when nothing slows the batch down. */
    static final int CHUNK = 1_000;

    private final ChunkDecisions chunks;
    private final DlqQueries queries;
    private final Clock clock;
    private final Sleeper sleeper;

    public BatchDecisions(Decisions decisions, DlqQueries queries, Clock clock, Sleeper sleeper) {
        this.chunks = decisions.chunks();
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
        return run(DecisionKind.REDRIVE, targets, options, listener, chunk -> {
            List<DecisionTarget> chosen = chunk.stream().map(target -> target.withSchemaVersion(options.schemaVersion())).toList();
            return options.dryRun() ? chunks.checkRedrive(chosen) : chunks.redrive(chosen, options.operator(), options.reason());
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
        return run(kind, targets, options, listener, chunk -> options.dryRun()
                ? chunks.checkEntries(kind, chunk, result)
                : chunks.decideEntries(kind, chunk, result, options.operator(), options.reason()));
    }

    @FunctionalInterface
    private interface ChunkDecision {
        List<DecisionResult> decide(List<DecisionTarget> chunk);
    }

    /**
     * How many items go in one chunk: as many as fit in a tenth of a second at the configured rate (so a paced batch
     * still trickles), at most {@value #CHUNK}.
     */
    static int chunkSize(BatchOptions options) {
        if (options.dryRun() || options.itemsPerSecond() <= 0) {
            return CHUNK;
        }
        return (int) Math.max(1, Math.min(CHUNK, options.itemsPerSecond() / 10));
    }

    private BatchReport run(DecisionKind kind, List<DecisionTarget> targets, BatchOptions options, BatchListener listener,
                            ChunkDecision decision) {
        if (targets.size() > MAX_ITEMS) {
            throw new IllegalArgumentException("a batch takes at most " + MAX_ITEMS + " items, got " + targets.size());
        }
        if (!options.dryRun()) {
            requireText(options.operator(), "a batch decision needs the operator's name");
            requireText(options.reason(), "a batch decision needs a reason");
        }
        Pacer pacer = new Pacer(options.dryRun() ? 0 : options.itemsPerSecond(), clock, sleeper);
        int size = chunkSize(options);
        List<DecisionResult> results = new ArrayList<>(targets.size());
        // A chunk runs on a thread of its own, so that an interrupt meant to stop the batch never reaches it half-way
        // (a publish interrupted after its commit would leave its redrives for the sweep): the batch stops between chunks.
        ExecutorService chunkThread = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "redrive-batch-chunk");
            thread.setDaemon(true);
            return thread;
        });
        try {
            for (int from = 0; from < targets.size(); from += size) {
                List<DecisionTarget> chunk = targets.subList(from, Math.min(targets.size(), from + size));
                if (listener.stopRequested() || Thread.currentThread().isInterrupted()) {
                    break;
                }
                try {
                    pacer.awaitSlots(chunk.size());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
                // The chunk records the operator's own trace, which lives in the caller's context.
                Callable<List<DecisionResult>> decide = Context.current().wrap(() -> decision.decide(chunk));
                for (DecisionResult result : finished(chunkThread.submit(decide))) {
                    results.add(result);
                    listener.itemDone(results.size(), targets.size(), result);
                }
            }
        } finally {
            chunkThread.shutdown();
        }
        return new BatchReport(kind, options.dryRun(), results);
    }

    /** Waits for a chunk to finish even when interrupted meanwhile; the interrupt is kept for the loop to see. */
    private static List<DecisionResult> finished(Future<List<DecisionResult>> chunk) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return chunk.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof RuntimeException failure) {
                        throw failure;
                    }
                    throw new IllegalStateException(e.getCause());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void requireText(String value, String message) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(message);
        }
    }
}
