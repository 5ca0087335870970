package dev.redrive.triage.decision.durable;

import dev.redrive.store.Database;
import dev.redrive.triage.decision.ChunkCommit;
import dev.redrive.triage.decision.ChunkDecisions;
import dev.redrive.triage.decision.DecisionAccess;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.decision.DispatchPublisher;
import dev.redrive.triage.decision.WriteTurn;
import dev.redrive.triage.decision.batch.BatchDecisions;
import dev.redrive.triage.decision.batch.BatchListener;
import dev.redrive.triage.decision.batch.BatchOptions;
import dev.redrive.triage.decision.batch.BatchReport;
import dev.redrive.triage.decision.batch.ChunkRunner;
import dev.redrive.triage.decision.batch.Pacer;
import dev.redrive.triage.decision.batch.Sleeper;
import dev.redrive.triage.decision.durable.RunTally.Started;
import dev.redrive.triage.decision.durable.SelectionWalk.Chunk;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.query.DlqFilter;
import dev.redrive.triage.query.DlqOrder;
import dev.redrive.triage.query.DlqQueries;
import dev.redrive.triage.query.DlqRow;
import dev.redrive.triage.query.PageDirection;

import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Batches that survive their process: a batch is a row ({@code redrive_batches}) holding its selection, who asked and
 * why, its progress and its keyset position. It is worked off chunk by chunk in keyset order, and each chunk's
 * decisions and the batch's progress commit in one transaction, so a process killed between chunks loses nothing and
 * repeats nothing: {@link #run} on the same batch (from any process) goes on after the last committed chunk. A process
 * holds a batch only while its lease runs, renewed as it works; a second process is refused while the lease runs, and
 * one whose lease ran out can no longer write progress (its chunk in flight is rolled back). Even so every item is
 * re-checked inside its chunk's transaction, so an item decided already is never decided twice.
 *
 * <p>{@link #start} only records the batch; {@link #run} works it off. Whoever decides that a batch may go (the
 * operator at once, or an approval later) calls the second.
 */
public final class DurableBatches {
    /** How long a process holds a batch without renewing its lease. */
    public static final Duration LEASE = Duration.ofSeconds(30);
    /** The results a run keeps to report item by item; beyond it the batch's counters tell. */
    public static final int REPORTED_ITEMS = BatchDecisions.MAX_ITEMS;

    private final Database database;
    private final ChunkDecisions chunks;
    private final DispatchPublisher publisher;
    private final DlqQueries queries;
    private final BatchStore store;
    private final Clock clock;
    private final Sleeper sleeper;
    private final Duration lease;
    private final String owner;

    public DurableBatches(Decisions decisions, DlqQueries queries, Clock clock, Sleeper sleeper) {
        this(decisions, queries, clock, sleeper, LEASE);
    }

    public DurableBatches(Decisions decisions, DlqQueries queries, Clock clock, Sleeper sleeper, Duration lease) {
        this.database = decisions.database();
        this.chunks = decisions.chunks();
        this.publisher = decisions.publisher();
        this.queries = queries;
        this.store = new BatchStore(decisions.database().jdbc());
        this.clock = clock;
        this.sleeper = sleeper;
        this.lease = lease;
        this.owner = ManagementFactory.getRuntimeMXBean().getName() + "/" + UUID.randomUUID().toString().substring(0, 8);
    }

    /**
     * What one run of a batch did: the batch as it ended, the results of the items this run took (the first
     * {@link #REPORTED_ITEMS}), and the ids of the entries it left out for having no operation of their own (as many).
     */
    public record BatchRun(DurableBatch batch, List<DecisionResult> items, boolean everyItemKept, List<Long> leftOut) {

        public BatchRun {
            items = List.copyOf(items);
            leftOut = List.copyOf(leftOut);
        }

        /** The run's items as a report, when it kept every one ({@link #REPORTED_ITEMS} or fewer). */
        public Optional<BatchReport> report() {
            return everyItemKept ? Optional.of(new BatchReport(batch.kind(), false, items)) : Optional.empty();
        }
    }

    /**
     * Records a batch (state RUNNING, nobody holding it yet) with the size of its selection now; nothing is decided
     * before {@link #run}. Resolve takes each operation's own APPLIED reconciliation's result. A selection without an
     * open entry is refused and nothing is recorded.
     */
    public DurableBatch start(DecisionKind kind, BatchSelection selection, BatchOptions options) {
        if (options.dryRun()) {
            throw new IllegalArgumentException("a dry run writes nothing: it is not a durable batch");
        }
        if (kind == DecisionKind.CORRECT) {
            throw new IllegalArgumentException("a batch redrives, resolves or discards; a correction takes one operation");
        }
        options.requireOperatorAndReason();
        requireMayDecide("no batch was recorded");
        DlqFilter openEntries = selection.filter() == null ? null : SelectionWalk.open(selection.filter());
        long total = openEntries == null ? selection.operationIds().size() : queries.exactCount(openEntries);
        if (total == 0) {
            throw new IllegalArgumentException(selection.nothingToTake(kind));
        }
        if (openEntries != null && !queries.anyOwnEntry(openEntries)) {
            // A batch leaves such entries out (they are decided one by one with --entry): it would take nothing.
            List<Long> first = queries.page(openEntries, DlqOrder.NEWEST_FIRST, null, PageDirection.NEXT,
                    BatchSelection.NAMED_ENTRIES).rows().stream().map(DlqRow::id).toList();
            throw new IllegalArgumentException(selection.onlyEntriesWithoutOperation(kind, total, first));
        }
        return store.insert(kind, selection, options, options.chunkSize(), total).batch();
    }

    public Optional<DurableBatch> find(long id) {
        return store.find(id).map(BatchStore.Row::batch);
    }

    /** The newest batches first. */
    public List<DurableBatch> newest(int limit) {
        return store.newest(limit);
    }

    /**
     * Asks the process running the batch to stop: it stops before its next chunk. A batch nobody runs (its process
     * died) is marked STOPPED at once. Audited as {@code BATCH_STOPPED} when it was running.
     *
     * @return the batch as it is now
     */
    public DurableBatch stop(long id) {
        requireMayDecide("batch " + id + " was not stopped");
        store.stop(id, clock.instant());
        return find(id).orElseThrow(() -> new IllegalArgumentException("no batch " + id));
    }

    /**
     * Works the batch off from where it stands until it is done, stopped (the listener, an interrupt, or {@link #stop}
     * from anywhere) or failed. First publishes what a process that died after a chunk's commit left unpublished.
     *
     * @throws BatchHeldException when another process holds it, or it is DONE
     */
    public BatchRun run(long id, DurableBatchListener listener) {
        requireMayDecide("batch " + id + " was not run");
        BatchStore.Row claimed = store.claim(id, owner, lease, clock.instant()).orElseThrow(() -> refusal(id));
        DurableBatch batch = claimed.batch();
        listener.claimed(batch);
        if (!claimed.unpublished().isEmpty()) {
            publisher.publishMissing(claimed.unpublished(), claimed.lastChunkAt().minus(PUBLISH_MARGIN));
            store.published(id, owner);
        }
        RunTally tally = new RunTally(store, id, owner, listener);
        AtomicBoolean held = new AtomicBoolean(true);
        ScheduledExecutorService heartbeat = heartbeat(id, held);
        BatchListener stopping = new StoppingListener(listener, held);
        BatchState end;
        Sleeper pause = sleeper.until(stopping::stopRequested, STOP_CHECK);
        try (ChunkRunner runner = new ChunkRunner(new Pacer(batch.itemsPerSecond(), clock, pause), stopping)) {
            end = workOff(batch, runner, tally);
        } catch (BatchHeldException e) {
            heartbeat.shutdownNow();
            return tally.run(find(id).orElseThrow());
        } catch (RuntimeException e) {
            String error = e.getMessage() == null ? e.getClass().getName() : e.getMessage().lines().findFirst().orElse("");
            store.release(id, owner, BatchState.FAILED, 0, error, clock.instant());
            throw e;
        } finally {
            heartbeat.shutdownNow();
        }
        store.release(id, owner, end, tally.refused(), tally.firstRefusal(), clock.instant());
        return tally.run(find(id).orElseThrow());
    }

    /**
     * Keeps this process's lease on the batch, and {@code held} true while it holds it: false once the lease could not
     * be renewed or the batch was stopped from elsewhere.
     */
    private ScheduledExecutorService heartbeat(long id, AtomicBoolean held) {
        ScheduledExecutorService heartbeat = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "redrive-batch-lease-" + id);
            thread.setDaemon(true);
            return thread;
        });
        long renewEvery = Math.max(1, lease.toMillis() / 3);
        heartbeat.scheduleAtFixedRate(() -> held.compareAndSet(true, store.renew(id, owner, lease)), renewEvery,
                renewEvery, TimeUnit.MILLISECONDS);
        // A stop asked from elsewhere (another terminal or host) shows here within a second, also during a pause.
        heartbeat.scheduleAtFixedRate(() -> held.compareAndSet(true, store.holds(id, owner)), STOP_POLL.toMillis(),
                STOP_POLL.toMillis(), TimeUnit.MILLISECONDS);
        return heartbeat;
    }

    /** Decides the batch's chunks from where it stands, two in flight, until its end, a stop or a refusal: how it ended. */
    private BatchState workOff(DurableBatch batch, ChunkRunner runner, RunTally tally) {
        SelectionWalk walk = SelectionWalk.of(batch, queries);
        Deque<Started> inFlight = new ArrayDeque<>();
        boolean walkedToEnd = false;
        while (tally.refused() == 0) {
            Chunk chunk = walk.next(batch.chunkSize());
            if (chunk.isEmpty()) {
                walkedToEnd = true;
                break;
            }
            // Items are reported as soon as their chunk is done, before the pace is waited for and again after it.
            tally.addDone(inFlight, runner);
            if (!runner.mayStart(Math.max(1, chunk.targets().size()))) {
                break;
            }
            tally.addDone(inFlight, runner);
            if (tally.refused() > 0 || runner.stopAsked()) {
                break;
            }
            inFlight.add(new Started(chunk, runner.start(turn -> decide(batch, chunk, turn))));
            // The next chunk is read from after this one's position while this one is decided.
            walk.advanced(chunk);
            if (inFlight.size() == ChunkRunner.IN_FLIGHT) {
                tally.add(inFlight.remove(), runner);
            }
        }
        while (!inFlight.isEmpty()) {
            tally.add(inFlight.remove(), runner);
        }
        if (tally.refused() > 0) {
            return BatchState.FAILED;
        }
        return walkedToEnd && !runner.leftAChunkUntaken() ? BatchState.DONE : BatchState.STOPPED;
    }

    /**
     * A batch decides, so a login that may not decide is told so before anything is written. The database refuses its
     * writes anyway; asked first, it says why in the operator's terms instead of failing on a masked view's column.
     *
     * @throws BatchRefusedException for a viewer, or a login without the grants a decision needs
     */
    private void requireMayDecide(String notDone) {
        DecisionAccess access = DecisionAccess.of(database);
        if (!access.canDecide()) {
            throw new BatchRefusedException("refused by the database: " + access.readOnlyReason() + "; " + notDone);
        }
    }

    /** How often a running batch asks its row whether it was stopped from another process. */
    private static final Duration STOP_POLL = Duration.ofSeconds(1);

    /** How often a batch paused for its pace looks whether it was asked to stop. */
    private static final Duration STOP_CHECK = Duration.ofMillis(100);

    /** How far before a chunk's commit its dispatches are looked for in the stream (clocks of two servers differ). */
    private static final Duration PUBLISH_MARGIN = Duration.ofMinutes(1);

    private BatchHeldException refusal(long id) {
        DurableBatch batch = find(id).orElseThrow(() -> new IllegalArgumentException(
                "no batch " + id + "; redrive batch list shows them"));
        if (batch.state() == BatchState.DONE) {
            return new BatchHeldException("batch " + id + " is done (" + batch.done() + " items taken): nothing to resume");
        }
        return new BatchHeldException("batch " + id + " is being run by " + batch.owner() + " (lease until "
                + batch.leaseUntil() + "): resume it once that process has stopped or its lease has run out");
    }

    /** The chunk's decisions, with the batch's progress recorded in the same transaction. */
    private List<DecisionResult> decide(DurableBatch batch, Chunk chunk, WriteTurn turn) {
        if (chunk.targets().isEmpty()) {
            turn.awaitWithoutLocks();
            // Only entries without an operation of their own: nothing to decide, the position still moves on.
            store.advance(batch.id(), owner, lease, chunk.positionBefore(), chunk.positionAfter(), 0, 0, chunk.leftOut(),
                    List.of());
            return List.of();
        }
        List<DecisionTarget> chosen = batch.kind() != DecisionKind.REDRIVE ? chunk.targets() : chunk.targets().stream()
                .map(target -> target.withSchemaVersion(batch.schemaVersion())).toList();
        // A chunk commits at once, or (after a lost race) item by item in order: the position moves from the key before
        // its first item to its last item's key, and only from there (a chunk before that did not commit stops it).
        ChunkCommit commit = (targets, items, commands) -> {
            int recorded = (int) items.stream().filter(item -> item.decision() == DecisionOutcome.DONE).count();
            int first = indexOf(chosen, targets.get(0));
            int last = indexOf(chosen, targets.get(targets.size() - 1));
            boolean end = last == chosen.size() - 1;
            store.advance(batch.id(), owner, lease, first == 0 ? chunk.positionBefore() : chunk.keys().get(first - 1),
                    end ? chunk.positionAfter() : chunk.keys().get(last), targets.size(), recorded,
                    end ? chunk.leftOut() : 0, commands);
            store.recordItems(batch.id(), items);
        };
        return switch (batch.kind()) {
            case REDRIVE -> chunks.redrive(chosen, batch.operator(), batch.reason(), commit, turn);
            case RESOLVE, DISCARD -> chunks.decideEntries(batch.kind(), chosen, null, batch.operator(), batch.reason(),
                    commit, turn);
            case CORRECT -> throw new IllegalStateException("a correction is never a batch");
        };
    }

    /** Where the very item (not an equal one: an operation may be listed twice) stands in its chunk. */
    private static int indexOf(List<DecisionTarget> chunk, DecisionTarget item) {
        for (int i = 0; i < chunk.size(); i++) {
            if (chunk.get(i) == item) {
                return i;
            }
        }
        throw new IllegalStateException("a chunk committed an item it does not hold");
    }

    /** Stops the batch when its operator asks, and when this process no longer holds it (stopped from elsewhere). */
    private record StoppingListener(BatchListener operator, AtomicBoolean held) implements BatchListener {
        @Override
        public void itemDone(int done, int total, DecisionResult result) {
            operator.itemDone(done, total, result);
        }

        @Override
        public boolean stopRequested() {
            return !held.get() || operator.stopRequested();
        }
    }
}
