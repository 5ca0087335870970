package dev.redrive.worker.protocol;

import dev.redrive.RuntimeVersion;
import dev.redrive.model.FailureClass;
import dev.redrive.model.LastCall;
import dev.redrive.model.OperationStatus;
import dev.redrive.model.SideEffectState;
import dev.redrive.model.TypedDuration;
import dev.redrive.store.deadletter.ErrorFingerprint;
import dev.redrive.store.operation.AttemptCommit;
import dev.redrive.store.operation.AttemptError;
import dev.redrive.store.reconciliation.ReconciliationFinding;
import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.store.reconciliation.ReconciliationSource;
import dev.redrive.worker.retry.RetryDecision;
import dev.redrive.worker.retry.RetryPolicy;
import dev.redrive.worker.retry.ToolGate;
import dev.redrive.worker.telemetry.AttemptSpans;
import dev.redrive.worker.telemetry.WorkerMetrics;
import dev.redrive.worker.tool.Reconciliation;
import dev.redrive.worker.tool.ToolFailure;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.function.Supplier;

/**
 * Executes one claimed attempt and turns what happened into an {@link AttemptCommit}: look the key up first when an
 * earlier call may have acted ({@link CallRule}), reconcile when the answer was lost, classify failures by type, ask the
 * retry policy, open the tool's circuit breaker when its dependency is down.
 */
final class AttemptRunner {
    private final Clock clock;
    private final RetryPolicy retryPolicy;
    private final ToolGate gate;
    private final DeliveryHistory history;
    private final String workerId;
    private final WorkerMetrics metrics;
    private final AttemptSpans spans;
    private final Duration unservedToolGrace;

    AttemptRunner(Clock clock, RetryPolicy retryPolicy, ToolGate gate, DeliveryHistory history, String workerId,
                  WorkerMetrics metrics, AttemptSpans spans, Duration unservedToolGrace) {
        this.clock = clock;
        this.unservedToolGrace = unservedToolGrace;
        this.metrics = metrics;
        this.spans = spans;
        this.retryPolicy = retryPolicy;
        this.gate = gate;
        this.history = history;
        this.workerId = workerId;
    }

    /** Runs the attempt; its call carries {@code leaseEnd} as its deadline. */
    AttemptEnd run(Job job, Instant leaseEnd) {
        if (job.tool() == null) {
            // The processor hands a dispatch of an unserved tool on while any worker served the tool within the grace.
            return new AttemptEnd.Finished(job, deadLetter(job, new AttemptError(FailureClass.INVALID_INPUT,
                    DeadLetterCodes.NO_WORKER_FOR_TOOL, "no worker serves tool " + job.envelope().tool()
                    + ": none announced it in " + TypedDuration.text(unservedToolGrace)
                    + "; a worker that registers it runs a redrive"),
                    SideEffectState.NONE, job.lease().priorCall(), null, null));
        }
        Span span = spans.startAttempt(job.operationId(), job.lease().attempt(), job.tool().name(),
                job.record().idempotencyKey(), job.traceparent());
        try (Scope ignored = span.makeCurrent()) {
            AttemptEnd end = attempt(job, leaseEnd);
            if (end instanceof AttemptEnd.Finished finished) {
                AttemptCommit commit = finished.commit();
                AttemptSpans.ended(span, commit.error() == null ? WorkerMetrics.NONE
                        : commit.error().failureClass().name(), commit.outcome().name());
                return new AttemptEnd.Finished(job, commit.withSpan(AttemptSpans.exported(span)));
            }
            AttemptSpans.ended(span, "CRASHED", "CRASHED");
            return end;
        } finally {
            span.end();
        }
    }

    private AttemptEnd attempt(Job job, Instant leaseEnd) {
        String toolName = job.tool().name();
        metrics.attemptStarted(toolName);
        if (job.lease().takeover()) {
            metrics.leaseTakeover(toolName);
        }
        LastCall prior = job.lease().priorCall();
        Reconciliation found = CallRule.lookUpFirst(prior) ? reconcile(job) : null;
        ReconciliationFinding before = found == null ? null : record(found);
        if (found != null) {
            switch (CallRule.afterLookUp(prior, found.outcome())) {
                case SUCCEED -> {
                    return new AttemptEnd.Finished(job, succeeded(job, found.result(), SideEffectState.APPLIED, null,
                            before));
                }
                case DEAD_LETTER -> {
                    return new AttemptEnd.Finished(job, deadLetter(job, new AttemptError(
                            FailureClass.UNKNOWN_SIDE_EFFECT, "earlier_call_in_doubt", "an earlier call of attempt "
                            + job.record().attempt() + " may have applied its effect and left no outcome"),
                            SideEffectState.POSSIBLE, LastCall.IN_DOUBT, before,
                            "the tool could not tell whether it was applied: " + found.evidence()));
                }
                case CALL -> {
                    // not applied: this attempt's call is the only one that can act
                }
            }
        }
        long started = System.nanoTime();
        Span call = spans.startToolCall(toolName);
        final String result;
        try (Scope ignored = call.makeCurrent()) {
            result = job.tool().execute(job.toolCall(leaseEnd));
            callEnded(call, toolName, started, WorkerMetrics.NONE, "ok");
        } catch (ToolFailure failure) {
            String failureClass = failure.failureClass().name();
            callEnded(call, toolName, started, failureClass, failureClass);
            return afterTheCall(job, () -> failed(job, failure, before));
        } catch (RuntimeException | LinkageError | AssertionError | StackOverflowError crash) {
            callEnded(call, toolName, started, "CRASHED", "crashed");
            return AttemptEnd.Crashed.inTheTool(job, crash);
        } finally {
            call.end();
        }
        return afterTheCall(job, () -> succeeded(job, result, SideEffectState.NONE, null, before));
    }

    /**
     * What the worker makes of the tool's answer. Should that fail (a dead letter reads its delivery history from
     * Redis, a reconciliation asks the tool), the call was made all the same: the crash says so, and the next claim
     * looks the key up before it calls again.
     */
    private static AttemptEnd afterTheCall(Job job, Supplier<AttemptCommit> answered) {
        try {
            return new AttemptEnd.Finished(job, answered.get());
        } catch (RuntimeException e) {
            return AttemptEnd.Crashed.afterTheCall(job, e);
        }
    }

    private void callEnded(Span call, String tool, long startedNanos, String failureClass, String outcome) {
        metrics.toolCall(tool, since(startedNanos), outcome);
        AttemptSpans.ended(call, failureClass, outcome);
    }

    private static Duration since(long startedNanos) {
        return Duration.ofNanos(System.nanoTime() - startedNanos);
    }

    private AttemptCommit failed(Job job, ToolFailure failure, ReconciliationFinding before) {
        FailureClass failureClass = failure.failureClass();
        AttemptError error = new AttemptError(failureClass, failure.code(), failure.getMessage());
        if (failureClass != FailureClass.UNKNOWN_SIDE_EFFECT) {
            return retryOrDeadLetter(job, error, failure.retryAfter().orElse(null), SideEffectState.NONE,
                    LastCall.ANSWERED_FAILURE, before);
        }
        Reconciliation found = reconcile(job);
        ReconciliationFinding reconciliation = record(found);
        return switch (found.outcome()) {
            case APPLIED -> succeeded(job, found.result(), SideEffectState.APPLIED, error, reconciliation);
            case NOT_APPLIED -> retryOrDeadLetter(job, error, null, SideEffectState.NOT_APPLIED, LastCall.NONE,
                    reconciliation);
            case UNKNOWN -> deadLetter(job, error, SideEffectState.POSSIBLE, LastCall.IN_DOUBT, reconciliation,
                    "the tool could not tell whether the effect was applied");
        };
    }

    private AttemptCommit retryOrDeadLetter(Job job, AttemptError error, Duration retryAfter, SideEffectState sideEffect,
                                            LastCall lastCall, ReconciliationFinding reconciliation) {
        Instant now = now();
        RetryDecision decision = retryPolicy.decide(error.failureClass(), job.lease().attempt(), retryAfter, now);
        if (!decision.retry()) {
            return deadLetter(job, error, sideEffect, lastCall, reconciliation, decision.reason());
        }
        Instant nextEligibleAt = decision.nextEligibleAt().truncatedTo(ChronoUnit.MILLIS);
        if (error.failureClass() == FailureClass.DEPENDENCY_DOWN) {
            gate.pause(job.tool().name(), nextEligibleAt, FailureClass.DEPENDENCY_DOWN);
        }
        return new AttemptCommit(job.lease(), job.deliveryInfo(), OperationStatus.RETRY_SCHEDULED, now, null, error,
                retryAfter, nextEligibleAt, sideEffect, lastCall, reconciliation, null);
    }

    /**
     * Dead-letters a message that {@code failedDeliveries} deliveries claimed without settling (the handler crashed, or
     * the worker died), with the history of its crashed deliveries.
     */
    AttemptCommit poison(Job job, String deliveryHistory, int failedDeliveries, int deliveryLimit) {
        boolean mayHaveActed = job.lease().priorCall() == LastCall.IN_DOUBT || DeliveryHistory.anyInTool(deliveryHistory);
        FailureClass failureClass = mayHaveActed ? FailureClass.UNKNOWN_SIDE_EFFECT : FailureClass.INVALID_INPUT;
        AttemptError error = new AttemptError(failureClass, DeadLetterCodes.DELIVERY_LIMIT, "processed " + failedDeliveries
                + " times (limit " + deliveryLimit + ") without the handler settling it");
        return deadLetterWithHistory(job, error, mayHaveActed ? SideEffectState.POSSIBLE : SideEffectState.NONE,
                mayHaveActed ? LastCall.IN_DOUBT : job.lease().priorCall(), null, deliveryHistory, fingerprint(job, error));
    }

    /**
     * Dead-letters, without running it, an operation whose claimed delivery the worker failed on while judging it (see
     * {@link MessageFault}): the failure would come back on every delivery. INVALID_INPUT, unless an earlier call may
     * have acted: then UNKNOWN_SIDE_EFFECT, as for a poison message.
     */
    AttemptCommit refuse(Job job, String code, String message) {
        boolean mayHaveActed = job.lease().priorCall() == LastCall.IN_DOUBT;
        FailureClass failureClass = mayHaveActed ? FailureClass.UNKNOWN_SIDE_EFFECT : FailureClass.INVALID_INPUT;
        return deadLetter(job, new AttemptError(failureClass, code, message),
                mayHaveActed ? SideEffectState.POSSIBLE : SideEffectState.NONE, job.lease().priorCall(), null, null);
    }

    private AttemptCommit deadLetter(Job job, AttemptError error, SideEffectState sideEffect, LastCall lastCall,
                                     ReconciliationFinding reconciliation, String why) {
        AttemptError explained = why == null ? error
                : new AttemptError(error.failureClass(), error.code(), error.message() + " (" + why + ")");
        // The group is the tool's failure: why the worker gave up ("attempt 4 was the last of 4", or, after a
        // redrive, "attempt 5 is past the 4") would put the same failure, failing again, in a group of its own.
        return deadLetterWithHistory(job, explained, sideEffect, lastCall, reconciliation,
                history.read(job.delivery().entryId()), fingerprint(job, error));
    }

    private static String fingerprint(Job job, AttemptError error) {
        return ErrorFingerprint.of(job.envelope().tool(), error.failureClass(), error.code(), error.message());
    }

    private AttemptCommit deadLetterWithHistory(Job job, AttemptError error, SideEffectState sideEffect,
                                                LastCall lastCall, ReconciliationFinding reconciliation,
                                                String deliveryHistory, String fingerprint) {
        return new AttemptCommit(job.lease(), job.deliveryInfo(), OperationStatus.DEAD_LETTERED, now(), null, error,
                null, null, sideEffect, lastCall, reconciliation, new AttemptCommit.DeadLetterEvidence(job.delivery().fields(),
                deliveryHistory, fingerprint, RuntimeVersion.wireValue()));
    }

    private AttemptCommit succeeded(Job job, String result, SideEffectState sideEffect, AttemptError error,
                                    ReconciliationFinding reconciliation) {
        return new AttemptCommit(job.lease(), job.deliveryInfo(), OperationStatus.SUCCEEDED, now(),
                JsonResults.asJson(result), error, null, null, sideEffect, LastCall.NONE, reconciliation, null);
    }

    private Reconciliation reconcile(Job job) {
        Reconciliation found;
        try {
            found = job.tool().reconcile(job.record().idempotencyKey());
        } catch (RuntimeException e) {
            found = Reconciliation.unknown("look-up failed: " + e);
        }
        metrics.reconciliation(job.tool().name(), found.outcome().name());
        return found;
    }

    private ReconciliationFinding record(Reconciliation found) {
        return new ReconciliationFinding(ReconciliationOutcome.valueOf(found.outcome().name()), ReconciliationSource.TOOL,
                found.evidence(), found.result(), workerId);
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }
}
