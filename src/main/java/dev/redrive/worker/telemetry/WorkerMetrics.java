package dev.redrive.worker.telemetry;

import dev.redrive.model.FailureClass;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The one place that names the worker's meters and their tags, so that README's list, the Grafana dashboard and the
 * code cannot drift apart. Every meter carries the tag {@code namespace}; Prometheus names follow Micrometer's
 * conversion ({@code redrive.attempts} → {@code redrive_attempts_total}, a timer in seconds → {@code _seconds}).
 * Without a registry of the embedder's, meters go to an empty composite registry, which records nothing.
 */
public final class WorkerMetrics {
    /** The tag value for a tag that does not apply: no failure class for a success, no tool for a malformed message. */
    public static final String NONE = "none";

    private static final List<String> OUTCOMES = List.of("SUCCEEDED", "RETRY_SCHEDULED", "DEAD_LETTERED");

    private final MeterRegistry registry;
    private final Tags namespace;
    private final AtomicLong retrySetSize = new AtomicLong();
    private final AtomicLong dispatchLagMillis = new AtomicLong();
    private final Timer claim;
    private final DistributionSummary batchSize;

    public WorkerMetrics(MeterRegistry registry, String namespace) {
        this.registry = registry;
        this.namespace = Tags.of("namespace", namespace);
        this.claim = Timer.builder("redrive.claim").description("time to claim a batch of deliveries and read their facts")
                .tags(this.namespace).publishPercentileHistogram().register(registry);
        this.batchSize = DistributionSummary.builder("redrive.batch.size")
                .description("deliveries in one batch read from the dispatch stream").tags(this.namespace)
                .register(registry);
        registry.gauge("redrive.retry.set.size", this.namespace, retrySetSize);
        registry.more().timeGauge("redrive.dispatch.lag", this.namespace, dispatchLagMillis,
                TimeUnit.MILLISECONDS, AtomicLong::doubleValue);
    }

    /**
     * Creates every counter a worker of these tools can move, at zero, so that a series exists (and a dashboard's
     * rate shows 0, not "no data") before its first event.
     */
    public WorkerMetrics withTools(Collection<String> tools) {
        List<String> classes = new ArrayList<>();
        Arrays.stream(FailureClass.values()).forEach(failureClass -> classes.add(failureClass.name()));
        for (String tool : tools) {
            started(tool);
            for (String outcome : OUTCOMES) {
                redrives(tool, outcome);
                attempts(tool, NONE, outcome);
                classes.forEach(failureClass -> attempts(tool, failureClass, outcome));
            }
            for (String failureClass : classes) {
                retries(tool, failureClass);
                deadLetters(tool, failureClass);
            }
            for (String result : List.of("APPLIED", "NOT_APPLIED", "UNKNOWN")) {
                reconciliations(tool, result);
            }
            takeovers(tool);
            fenced(tool);
        }
        deadLetters(NONE, FailureClass.INVALID_INPUT.name());
        for (String reason : List.of("duplicate", "done", "not_due", "paused", "discarded")) {
            skipped(reason);
        }
        return this;
    }

    /** Meters that record nothing, for a worker built without a registry. */
    public static WorkerMetrics none(String namespace) {
        return new WorkerMetrics(new CompositeMeterRegistry(), namespace);
    }

    public void attemptStarted(String tool) {
        started(tool).increment();
    }

    /**
     * A committed attempt: {@code outcome} is SUCCEEDED, RETRY_SCHEDULED or DEAD_LETTERED, {@code failureClass} the
     * class of its error ({@link #NONE} for a clean success).
     */
    public void attemptFinished(String tool, String failureClass, String outcome) {
        attempts(tool, failureClass, outcome).increment();
        if (outcome.equals("RETRY_SCHEDULED")) {
            retries(tool, failureClass).increment();
        } else if (outcome.equals("DEAD_LETTERED")) {
            deadLettered(tool, failureClass);
        }
    }

    /**
     * A dispatch of a tool this worker does not serve, handed on to the workers that do. No tool label: the name comes
     * from the message, and any producer could make a series of each name it sends.
     */
    public void handedOn() {
        counter("redrive.dispatches.handed.on", "dispatches of tools another worker serves, handed on").increment();
    }

    /** A dead letter: of a committed attempt, or of a message that is no valid dispatch (tool {@link #NONE}). */
    public void deadLettered(String tool, String failureClass) {
        deadLetters(tool, failureClass).increment();
    }

    /** One call of a tool, timed; {@code outcome} is {@code ok}, the failure class it raised, or {@code crashed}. */
    public void toolCall(String tool, Duration took, String outcome) {
        Timer.builder("redrive.tool.call").description("latency of tool calls").tags(namespace)
                .tags("tool", tool, "outcome", outcome).publishPercentileHistogram()
                .register(registry).record(took);
    }

    /** A look-up of a tool by idempotency key: APPLIED, NOT_APPLIED or UNKNOWN. */
    public void reconciliation(String tool, String result) {
        reconciliations(tool, result).increment();
    }

    /** A claim that took over an expired lease of another attempt (which is reconciled before any call). */
    public void leaseTakeover(String tool) {
        takeovers(tool).increment();
    }

    /** A commit the fencing token refused: another worker had taken the operation over meanwhile. */
    public void fencedCommit(String tool) {
        fenced(tool).increment();
    }

    /**
     * A delivery acked or left without running: {@code duplicate} (another delivery of the operation is handled),
     * {@code done} (the operation already ended), {@code not_due} (back to the retry set), {@code paused} (its tool is
     * paused or over budget), {@code discarded} (cancelled run, stale command, ...).
     */
    public void deliverySkipped(String reason) {
        skipped(reason).increment();
    }

    /** A redrive command whose attempt was committed, by the attempt's outcome. */
    public void redriveExecuted(String tool, String outcome) {
        redrives(tool, outcome).increment();
    }

    public void batch(int size, Duration claimTook) {
        batchSize.record(size);
        claim.record(claimTook);
    }

    /** Sampled by the worker's scheduler: members of the retry set, and the age of the oldest undone dispatch. */
    public void sampled(long retrySetMembers, Duration dispatchLag) {
        retrySetSize.set(retrySetMembers);
        dispatchLagMillis.set(dispatchLag.toMillis());
    }

    // One method per counter, so that its name, description and tags are written once: the events move them, and
    // withTools creates them at zero.

    private Counter started(String tool) {
        return counter("redrive.attempts.started", "attempts handed to a tool", "tool", tool);
    }

    private Counter attempts(String tool, String failureClass, String outcome) {
        return counter("redrive.attempts", "attempts committed, by failure class and outcome", "tool", tool,
                "class", failureClass, "outcome", outcome);
    }

    private Counter retries(String tool, String failureClass) {
        return counter("redrive.retries.scheduled", "retries put into the retry set", "tool", tool, "class",
                failureClass);
    }

    private Counter deadLetters(String tool, String failureClass) {
        return counter("redrive.dead.letters", "DLQ entries written", "tool", tool, "class", failureClass);
    }

    private Counter reconciliations(String tool, String result) {
        return counter("redrive.reconciliations", "reconciliations with a tool, by result", "tool", tool, "result",
                result);
    }

    private Counter takeovers(String tool) {
        return counter("redrive.lease.takeovers", "claims of an operation whose earlier lease had expired", "tool", tool);
    }

    private Counter fenced(String tool) {
        return counter("redrive.commits.fenced", "commits refused because another worker took the lease over", "tool",
                tool);
    }

    private Counter skipped(String reason) {
        return counter("redrive.deliveries.skipped", "deliveries acked or left without an attempt, by reason", "reason",
                reason);
    }

    private Counter redrives(String tool, String outcome) {
        return counter("redrive.redrive.commands", "redrive commands executed, by the outcome of their attempt", "tool",
                tool, "outcome", outcome);
    }

    private Counter counter(String name, String description, String... tags) {
        return Counter.builder(name).description(description).tags(namespace).tags(tags).register(registry);
    }
}
