package dev.redrive.worker.protocol;

import dev.redrive.broker.DeadLetterStream;
import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.model.OperationStatus;
import dev.redrive.secret.SecretScanner;
import dev.redrive.store.StoreException;
import dev.redrive.store.operation.AttemptCommit;
import dev.redrive.store.operation.CommitResult;
import dev.redrive.store.operation.AttemptCommits;
import dev.redrive.store.operation.OperationStore;
import dev.redrive.worker.retry.RetryQueue;
import dev.redrive.worker.stream.DispatchStream;
import dev.redrive.worker.telemetry.WorkerMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Group commit: takes every attempt that has ended, commits them in one transaction (each guarded by its fencing
 * token), then writes to Redis what the commit implies (retry-set members, DLQ events) and only then acks. A crash
 * between any two of those steps leaves the entry pending, and its redelivery is answered from the committed facts.
 */
final class Committer {
    private static final Logger LOG = LoggerFactory.getLogger(Committer.class);
    /** The most attempts one commit carries. */
    static final int MAX_GROUP = 256;

    private final BlockingQueue<AttemptEnd> ended = new LinkedBlockingQueue<>();
    private final OperationStore store;
    private final AttemptCommits commits;
    private final RetryQueue retryQueue;
    private final DeadLetterStream deadLetterStream;
    private final DispatchStream stream;
    private final DeliveryHistory history;
    private final AttemptRunner runner;
    private final InFlight inFlight;
    private final Clock clock;
    private final int deliveryLimit;
    private final WorkerMetrics metrics;

    Committer(OperationStore store, AttemptCommits commits, RetryQueue retryQueue, DeadLetterStream deadLetterStream, DispatchStream stream,
              DeliveryHistory history, AttemptRunner runner, InFlight inFlight, Clock clock, int deliveryLimit,
              WorkerMetrics metrics) {
        this.store = store;
        this.commits = commits;
        this.metrics = metrics;
        this.retryQueue = retryQueue;
        this.deadLetterStream = deadLetterStream;
        this.stream = stream;
        this.history = history;
        this.runner = runner;
        this.inFlight = inFlight;
        this.clock = clock;
        this.deliveryLimit = deliveryLimit;
    }

    void submit(AttemptEnd end) {
        ended.add(end);
    }

    /** Commits whatever has ended, waiting at most {@code wait} for the first; returns how many were handled. */
    int commitAvailable(Duration wait) throws InterruptedException {
        AttemptEnd first = ended.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
        if (first == null) {
            return 0;
        }
        List<AttemptEnd> group = new ArrayList<>();
        group.add(first);
        ended.drainTo(group, MAX_GROUP - 1);
        handle(group);
        return group.size();
    }

    private void handle(List<AttemptEnd> group) {
        Map<AttemptCommit, Job> jobs = new HashMap<>();
        List<AttemptCommit> commits = new ArrayList<>();
        for (AttemptEnd end : group) {
            AttemptCommit commit;
            if (end instanceof AttemptEnd.Finished finished) {
                commit = finished.commit();
            } else if (end instanceof AttemptEnd.Crashed crashed) {
                commit = afterCrash(crashed);
            } else {
                commit = null;
                LOG.warn("lease on {} expired before a pool thread was free; the entry stays pending",
                        end.job().operationId());
                giveBackUnstarted(end.job());
            }
            if (commit != null) {
                commits.add(commit);
                jobs.put(commit, end.job());
            }
        }
        List<CommitResult> results;
        try {
            results = commits.isEmpty() ? List.of() : commitWithFallback(commits);
        } finally {
            // Released exactly once, as soon as the facts in PostgreSQL answer any further delivery: the retry
            // announced next may be promoted and read at once and must not be taken for a duplicate of the attempt
            // that just ended; releasing again later could drop a new claim of the same entry.
            release(group);
        }
        announce(results, jobs);
    }

    private void release(List<AttemptEnd> group) {
        group.forEach(end -> inFlight.done(end.job().operationId(), end.job().delivery().entryId()));
    }

    /** Records the crash; past the delivery limit the attempt is dead-lettered, else its lease is given back. */
    private AttemptCommit afterCrash(AttemptEnd.Crashed crashed) {
        Job job = crashed.job();
        // a tool's exception may quote what it was sent or answered: its message is masked, its trace kept for debug
        LOG.warn("handler crashed on {} (entry {}, delivery {}): {}", job.operationId(), job.delivery().entryId(),
                job.delivery().deliveryCount(), SecretScanner.defaults().mask(String.valueOf(crashed.error())));
        LOG.debug("crash of {}", job.operationId(), crashed.error());
        try {
            String deliveries = history.recordCrash(job.delivery(), crashed.error(), crashed.inTool(), now());
            if (job.lease().processingDeliveries() >= deliveryLimit) {
                return runner.poison(job, deliveries, job.lease().processingDeliveries(), deliveryLimit);
            }
            store.release(job.lease(), crashed.call(), now());
        } catch (RuntimeException e) {
            LOG.warn("could not record the crash of {}; its lease expires by itself", job.operationId(), e);
        }
        return null;
    }

    /** Nothing was tried: the claim should not count towards the delivery limit (unless another worker took over). */
    private void giveBackUnstarted(Job job) {
        try {
            store.giveBackUnstarted(job.lease(), now());
        } catch (RuntimeException e) {
            LOG.debug("could not give back the unstarted lease on {}; it has expired anyway", job.operationId(), e);
        }
    }

    private List<CommitResult> commitWithFallback(List<AttemptCommit> commits) {
        try {
            return this.commits.commit(commits);
        } catch (StoreException groupFailed) {
            if (commits.size() == 1) {
                LOG.error("commit of {} failed; the entry stays pending", commits.get(0).lease().operationId(), groupFailed);
                return List.of();
            }
            LOG.warn("group commit of {} attempts failed, committing one by one", commits.size(), groupFailed);
            List<CommitResult> results = new ArrayList<>();
            for (AttemptCommit commit : commits) {
                results.addAll(commitWithFallback(List.of(commit)));
            }
            return results;
        }
    }

    private void announce(List<CommitResult> results, Map<AttemptCommit, Job> jobs) {
        List<DispatchEnvelope> retries = new ArrayList<>();
        List<String> acks = new ArrayList<>();
        try {
            for (CommitResult result : results) {
                AttemptCommit commit = result.commit();
                Job job = jobs.get(commit);
                String tool = job.envelope().tool();
                if (!result.committed()) {
                    metrics.fencedCommit(tool);
                    LOG.warn("lease on {} was taken over (fencing token {} is stale): nothing committed",
                            job.operationId(), commit.lease().fencingToken());
                    continue;
                }
                metrics.attemptFinished(tool, commit.error() == null ? WorkerMetrics.NONE
                        : commit.error().failureClass().name(), commit.outcome().name());
                if (job.envelope().redriveCommandId() != null) {
                    metrics.redriveExecuted(tool, commit.outcome().name());
                }
                if (commit.outcome() == OperationStatus.RETRY_SCHEDULED) {
                    retries.add(RetryEnvelopes.of(job.record(), commit.lease().attempt() + 1, commit.nextEligibleAt(),
                            commit.error().failureClass(), null, commit.finishedAt()));
                }
                if (result.deadLetter() != null) {
                    deadLetterStream.publish(result.deadLetter());
                }
                acks.add(job.delivery().entryId());
            }
            retryQueue.schedule(retries);
            history.forget(acks);
            stream.ack(acks);
        } catch (RuntimeException e) {
            LOG.warn("Redis refused the follow-up of a commit; the entries stay pending and are repaired on redelivery", e);
        }
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }
}
