package dev.redrive.worker.protocol;

import dev.redrive.broker.DeadLetterStream;
import dev.redrive.broker.Redis;
import dev.redrive.model.LastCall;
import dev.redrive.store.Database;
import dev.redrive.store.DatabaseClock;
import dev.redrive.store.operation.AttemptCommits;
import dev.redrive.store.operation.Lease;
import dev.redrive.store.operation.OperationStore;
import dev.redrive.worker.client.WorkerClient;
import dev.redrive.worker.retry.RetryQueue;
import dev.redrive.worker.stream.Delivery;
import dev.redrive.worker.stream.DispatchStream;
import dev.redrive.worker.stream.StreamTrimmer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads of a running worker: one consumer (reads, re-claims, decides, claims), a pool that runs tool calls,
 * one committer (group commits, then Redis follow-ups, then acks), one lease renewer (the heartbeat of the attempts in
 * flight) and one retry scheduler, which also sweeps for operations whose dispatch Redis lost, publishes again
 * everything waiting as soon as it sees Redis lose the namespace's data, and keeps the streams within their retention.
 */
public final class WorkerRuntime {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerRuntime.class);
    private static final Duration MAX_SWEEP_INTERVAL = Duration.ofSeconds(30);
    private static final Duration LOSS_CHECK_INTERVAL = Duration.ofSeconds(1);
    private static final Duration CLOCK_ALIGN_INTERVAL = Duration.ofSeconds(10);
    private static final Duration TRIM_INTERVAL = Duration.ofSeconds(2);
    private static final Duration SAMPLE_INTERVAL = Duration.ofSeconds(5);

    private final WorkerSettings settings;
    private final DispatchStream stream;
    private final RetryQueue retryQueue;
    private final InFlight inFlight;
    private final StrandedSweep sweep;
    private final RedisLossWatch lossWatch;
    private final StreamTrimmer trimmer;
    private final RetentionHousekeeping retention;
    private final Redis redis;
    private final OperationStore store;
    private final Committer committer;
    private final DispatchProcessor processor;
    private final LeaseRenewer renewer;
    private final ExecutorService tools;
    private final Thread consumerThread;
    private final Thread committerThread;
    private final Thread schedulerThread;
    private final ToolServers toolServers;
    private final Thread renewerThread;
    private final CountDownLatch renewalStop = new CountDownLatch(1);
    private volatile boolean reading = true;
    private volatile boolean committing = true;
    private volatile boolean scheduling = true;

    public WorkerRuntime(WorkerSettings settings, Database database, Redis redis) {
        this.settings = settings;
        this.stream = new DispatchStream(redis, settings.consumerName());
        this.retryQueue = new RetryQueue(redis);
        // Reads and claims only what the pool can start soon (see InFlight.forPool); the rest of the stream waits
        // unread, for this worker or another. A commit group of ended attempts may wait for its commit meanwhile, so
        // that claiming the next batch overlaps committing the last.
        this.inFlight = InFlight.forPool(settings.concurrency(), settings.batchSize(), settings.leaseDuration());
        DeliveryHistory history = new DeliveryHistory(redis);
        DeadLetterStream deadLetterStream = new DeadLetterStream(redis);
        AttemptRunner runner = new AttemptRunner(settings.clock(), settings.retryPolicy(), settings.gate(), history,
                settings.consumerName(), settings.metrics(), settings.spans(), settings.unservedToolGrace());
        this.store = new OperationStore(database.jdbc());
        this.committer = new Committer(store, new AttemptCommits(database.jdbc()), retryQueue, deadLetterStream, stream,
                history, runner, inFlight, settings.clock(), settings.deliveryLimit(), settings.metrics());
        this.renewer = new LeaseRenewer(store, stream, inFlight, settings.clock(), settings.leaseDuration(),
                settings.consumerName());
        this.sweep = new StrandedSweep(store, retryQueue,
                new WorkerClient(database, redis, settings.clock()), settings.sweepGrace());
        this.lossWatch = new RedisLossWatch(redis);
        this.trimmer = new StreamTrimmer(redis);
        this.retention = new RetentionHousekeeping(database.jdbc(), settings.consumerName());
        this.redis = redis;
        this.tools = Executors.newFixedThreadPool(settings.concurrency(), named(settings.consumerName() + "-tool"));
        this.toolServers = new ToolServers(redis, settings.unservedToolGrace());
        this.processor = new DispatchProcessor(settings, database.jdbc(), deadLetterStream, retryQueue, stream,
                inFlight, runner, committer, history, tools, toolServers);
        this.consumerThread = new Thread(this::consume, settings.consumerName() + "-consumer");
        this.committerThread = new Thread(this::commit, settings.consumerName() + "-committer");
        this.schedulerThread = new Thread(this::schedule, settings.consumerName() + "-retry-scheduler");
        this.renewerThread = new Thread(this::renew, settings.consumerName() + "-lease-renewer");
    }

    public void start() {
        stream.ensureGroup();
        // Before the first read: a worker of another tool reading this one's dispatches hands them on at once.
        toolServers.announce(settings.tools().keySet(), settings.consumerName(), Instant.now(settings.clock()));
        // Before the first read, so that a recovery never interleaves with this worker's first deliveries.
        lookForRedisLoss();
        committerThread.start();
        renewerThread.start();
        schedulerThread.start();
        consumerThread.start();
    }

    /**
     * Stops reading, lets in-flight attempts finish, commit and be acked for at most {@code grace}, then gives back the
     * leases of attempts still running: their entries stay pending and are re-claimed by another worker, which
     * reconciles before it calls the tool again. What those attempts produce afterwards is not committed.
     */
    public void stop(Duration grace) throws InterruptedException {
        reading = false;
        consumerThread.join();
        withdrawTools();
        tools.shutdown();
        long deadline = System.nanoTime() + grace.toNanos();
        tools.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        while (!inFlight.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        committing = false;
        committerThread.join();
        renewalStop.countDown();
        renewerThread.join();
        List<Lease> unfinished = inFlight.leases();
        if (!unfinished.isEmpty()) {
            LOG.warn("{}: {} attempt(s) still running after {}; giving their leases back", settings.consumerName(),
                    unfinished.size(), grace);
            Instant now = Instant.now(settings.clock()).truncatedTo(ChronoUnit.MILLIS);
            unfinished.forEach(lease -> store.release(lease, LastCall.IN_DOUBT, now));
        }
        tools.shutdownNow();
        scheduling = false;
        schedulerThread.interrupt();
        schedulerThread.join();
        stream.close();
    }

    /** Workers of other tools stop handing this one's dispatches on at once; a failure only delays that by the LIVE window. */
    private void withdrawTools() {
        try {
            toolServers.withdraw(settings.tools().keySet(), settings.consumerName());
        } catch (RuntimeException e) {
            LOG.warn("{}: could not withdraw its tools from {}", settings.consumerName(), redis.keys().toolWorkers(), e);
        }
    }

    private void consume() {
        long nextClaim = 0;
        while (reading) {
            try {
                // Half of what may be claimed at least: claiming slot by slot as attempts end would spend a statement
                // on each. The attempts still queued for a pool thread keep the pool busy meanwhile.
                int claimAtOnce = Math.max(1, Math.min(settings.batchSize(), inFlight.unfinishedCapacity()) / 2);
                if (!inFlight.awaitFree(claimAtOnce, Duration.ofMillis(200))) {
                    continue;
                }
                if (System.nanoTime() >= nextClaim) {
                    nextClaim = System.nanoTime() + settings.claimInterval().toNanos();
                    List<Delivery> stale = stream.claimStale(Math.min(settings.batchSize(), inFlight.free()),
                            settings.leaseDuration());
                    processor.process(stale);
                }
                int room = Math.min(settings.batchSize(), inFlight.free());
                if (room > 0 && reading) {
                    processor.process(stream.readNew(room, settings.readBlock()));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException | Error e) {
                // A message's own failure never gets here (see DispatchProcessor): this is the servers, or a bug.
                rethrowIfFatal(e);
                LOG.error("{}: a batch failed; its entries stay pending and are re-claimed after the lease time",
                        settings.consumerName(), e);
                pause(Duration.ofMillis(500));
            }
        }
    }

    private void commit() {
        while (committing) {
            try {
                committer.commitAvailable(Duration.ofMillis(100));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException | Error e) {
                rethrowIfFatal(e);
                LOG.error("{}: commit loop failed", settings.consumerName(), e);
                pause(Duration.ofMillis(500));
            }
        }
    }

    private void renew() {
        try {
            while (!renewalStop.await(settings.leaseRenewalInterval().toMillis(), TimeUnit.MILLISECONDS)) {
                try {
                    renewer.renewAll();
                } catch (RuntimeException e) {
                    LOG.warn("{}: renewing leases failed; trying again at the next tick", settings.consumerName(), e);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void schedule() {
        Duration sweepInterval = settings.sweepGrace().dividedBy(2).compareTo(MAX_SWEEP_INTERVAL) < 0
                ? settings.sweepGrace().dividedBy(2) : MAX_SWEEP_INTERVAL;
        long nextSweep = System.nanoTime() + sweepInterval.toNanos();
        long nextLossCheck = System.nanoTime() + LOSS_CHECK_INTERVAL.toNanos();
        long nextAlignment = System.nanoTime() + CLOCK_ALIGN_INTERVAL.toNanos();
        long nextTrim = System.nanoTime() + TRIM_INTERVAL.toNanos();
        long nextRetention = System.nanoTime() + settings.retentionInterval().toNanos();
        long nextSample = System.nanoTime();
        long nextAnnouncement = System.nanoTime() + ToolServers.ANNOUNCE_INTERVAL.toNanos();
        while (scheduling) {
            try {
                if (System.nanoTime() >= nextAnnouncement) {
                    nextAnnouncement = System.nanoTime() + ToolServers.ANNOUNCE_INTERVAL.toNanos();
                    toolServers.announce(settings.tools().keySet(), settings.consumerName(), Instant.now(settings.clock()));
                }
                if (System.nanoTime() >= nextSample) {
                    nextSample = System.nanoTime() + SAMPLE_INTERVAL.toNanos();
                    sampleBacklog();
                }
                if (System.nanoTime() >= nextTrim) {
                    nextTrim = System.nanoTime() + TRIM_INTERVAL.toNanos();
                    trimmer.trim(redis.keys().dispatch(), settings.streamRetention());
                    trimmer.trim(redis.keys().dlq(), settings.streamRetention());
                }
                if (System.nanoTime() >= nextAlignment && settings.clock() instanceof DatabaseClock databaseClock) {
                    nextAlignment = System.nanoTime() + CLOCK_ALIGN_INTERVAL.toNanos();
                    databaseClock.align();
                }
                if (System.nanoTime() >= nextLossCheck) {
                    nextLossCheck = System.nanoTime() + LOSS_CHECK_INTERVAL.toNanos();
                    lookForRedisLoss();
                }
                if (System.nanoTime() >= nextRetention) {
                    nextRetention = System.nanoTime() + settings.retentionInterval().toNanos();
                    retention.apply(Instant.now(settings.clock()).truncatedTo(ChronoUnit.MILLIS));
                }
                retryQueue.promoteDue(Instant.now(settings.clock()), 500);
                if (System.nanoTime() >= nextSweep) {
                    nextSweep = System.nanoTime() + sweepInterval.toNanos();
                    Instant now = Instant.now(settings.clock()).truncatedTo(ChronoUnit.MILLIS);
                    sweep.sweep(now, stream.oldestUndone());
                }
                Thread.sleep(settings.schedulerInterval().toMillis());
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException | Error e) {
                rethrowIfFatal(e);
                if (!scheduling && interrupted(e)) {
                    // stop() interrupts this thread, possibly inside a Redis or SQL call: that is the stop, no failure.
                    return;
                }
                LOG.warn("{}: promoting due retries failed; trying again", settings.consumerName(), e);
                pause(Duration.ofSeconds(1));
            }
        }
    }

    /** The gauges no event moves: how many retries wait, and how long the oldest undone dispatch has waited. */
    private void sampleBacklog() {
        Instant now = Instant.now(settings.clock());
        Duration lag = stream.oldestUndone().map(oldest -> Duration.between(oldest, now)).filter(d -> !d.isNegative())
                .orElse(Duration.ZERO);
        settings.metrics().sampled(retryQueue.size(), lag);
    }

    private void lookForRedisLoss() {
        Instant now = Instant.now(settings.clock()).truncatedTo(ChronoUnit.MILLIS);
        if (lossWatch.markerWasGone(now)) {
            recover(now);
        }
    }

    private void recover(Instant now) {
        try {
            // A group gone (or found gone by a read) means the stream was lost with everything in it: no dispatch of it
            // survives to spare. (A worker creates the group before its first look, so a first start is not a loss.)
            boolean streamLost = stream.takeGroupLost() | !stream.groupExists();
            stream.ensureGroup();
            sweep.recover(now, streamLost ? Optional.empty() : stream.oldestUndone());
        } catch (RuntimeException e) {
            lossWatch.forget();
            throw e;
        }
    }

    /** The loops go on after any failure but one no code should outlive (out of memory, say). */
    private static void rethrowIfFatal(Throwable failure) {
        if (MessageFault.isFatal(failure)) {
            throw (Error) failure;
        }
    }

    private static boolean interrupted(Throwable failure) {
        if (Thread.currentThread().isInterrupted()) {
            return true;
        }
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof InterruptedException) {
                return true;
            }
        }
        return false;
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static ThreadFactory named(String prefix) {
        AtomicInteger counter = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + "-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
