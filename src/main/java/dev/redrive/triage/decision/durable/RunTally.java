package dev.redrive.triage.decision.durable;

import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.decision.batch.BatchListener;
import dev.redrive.triage.decision.batch.ChunkRunner;
import dev.redrive.triage.decision.durable.DurableBatches.BatchRun;
import dev.redrive.triage.decision.durable.SelectionWalk.Chunk;

import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.Future;

/** What a run of a durable batch took, chunk by chunk in batch order. */
final class RunTally {
    private final BatchStore store;
    private final long id;
    private final String owner;
    private final BatchListener listener;
    private final List<DecisionResult> kept = new ArrayList<>();
    private final List<Long> leftOut = new ArrayList<>();
    private long taken;
    private int refused;
    private String firstRefusal;

    RunTally(BatchStore store, long id, String owner, BatchListener listener) {
        this.store = store;
        this.id = id;
        this.owner = owner;
        this.listener = listener;
    }

    /** A chunk started and not yet collected. */
    record Started(Chunk chunk, Future<List<DecisionResult>> results) {
    }

    /**
     * Collects a chunk's results: the items refused by the database (which end the batch FAILED), its published
     * commands (nothing left for a resume to publish), each item for the listener with the batch's progress.
     */
    void add(Started started, ChunkRunner runner) {
        List<DecisionResult> results = runner.results(started.results());
        List<DecisionResult> refusals = results.stream()
                .filter(result -> result.outcome() == DecisionOutcome.REFUSED).toList();
        if (!refusals.isEmpty() && refused == 0) {
            firstRefusal = refusals.get(0).message();
        }
        refused += refusals.size();
        List<UUID> commands = results.stream().map(DecisionResult::commandId).filter(Objects::nonNull).toList();
        if (!commands.isEmpty()) {
            store.published(id, owner, commands);
        }
        DurableBatch now = store.find(id).orElseThrow().batch();
        taken += results.size();
        for (DecisionResult result : results) {
            if (kept.size() < DurableBatches.REPORTED_ITEMS) {
                kept.add(result);
            }
            listener.itemDone((int) Math.min(Integer.MAX_VALUE, now.done()),
                    (int) Math.min(Integer.MAX_VALUE, Math.max(now.total(), now.done())), result);
        }
        started.chunk().leftOutIds().stream().limit(DurableBatches.REPORTED_ITEMS - leftOut.size()).forEach(leftOut::add);
    }

    /** Collects the chunks at the head of {@code inFlight} that are done, in batch order. */
    void addDone(Deque<Started> inFlight, ChunkRunner runner) {
        while (!inFlight.isEmpty() && inFlight.peek().results().isDone()) {
            add(inFlight.remove(), runner);
        }
    }

    /** How many items the database refused: one ends the batch FAILED. */
    int refused() {
        return refused;
    }

    String firstRefusal() {
        return firstRefusal;
    }

    BatchRun run(DurableBatch ended) {
        return new BatchRun(ended, kept, taken <= DurableBatches.REPORTED_ITEMS, leftOut);
    }
}
