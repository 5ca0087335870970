package dev.redrive.worker.telemetry;

import dev.redrive.RuntimeVersion;
import dev.redrive.store.operation.AttemptSpan;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;

import java.util.List;

/**
 * The spans of the worker: one {@code redrive.attempt} per attempt, a child of the dispatch's {@code traceparent}
 * (the caller's span) when it carried one, and one {@code redrive.tool_call} inside it per call of the tool, which
 * {@code HttpTool} passes on to the tool as its {@code traceparent} header. Without an OpenTelemetry SDK the spans
 * record nothing, but the caller's trace context still flows through to the tool.
 */
public final class AttemptSpans {
    public static final String ATTEMPT = "redrive.attempt";
    public static final String TOOL_CALL = "redrive.tool_call";

    private static final TextMapGetter<String> TRACEPARENT = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(String carrier) {
            return List.of("traceparent");
        }

        @Override
        public String get(String carrier, String key) {
            return key.equals("traceparent") ? carrier : null;
        }
    };

    private final Tracer tracer;

    public AttemptSpans(OpenTelemetry openTelemetry) {
        this.tracer = openTelemetry.getTracer("dev.redrive.worker", RuntimeVersion.current());
    }

    /** Starts the span of one attempt; {@code traceparent} (may be null) names its parent. */
    public Span startAttempt(String operationId, int attempt, String tool, String idempotencyKey, String traceparent) {
        Context parent = traceparent == null ? Context.root()
                : W3CTraceContextPropagator.getInstance().extract(Context.root(), traceparent, TRACEPARENT);
        return tracer.spanBuilder(ATTEMPT).setParent(parent).setSpanKind(SpanKind.CONSUMER)
                .setAttribute("redrive.operation_id", operationId)
                .setAttribute("redrive.attempt", attempt)
                .setAttribute("redrive.tool", tool)
                .setAttribute("redrive.idempotency_key", idempotencyKey)
                .startSpan();
    }

    /** Starts the span of one tool call, a child of the current (attempt) span. */
    public Span startToolCall(String tool) {
        return tracer.spanBuilder(TOOL_CALL).setSpanKind(SpanKind.CLIENT).setAttribute("redrive.tool", tool).startSpan();
    }

    /**
     * The ids of a span a tracer will receive, recorded with the attempt so that an operator can open it; null when no
     * SDK records it. The API without an SDK hands back the parent's context as the "span", so the ids alone would
     * name the caller's span: only a recording, sampled span is the attempt's own.
     */
    public static AttemptSpan exported(Span span) {
        SpanContext context = span.getSpanContext();
        return span.isRecording() && context.isSampled() ? new AttemptSpan(context.getTraceId(), context.getSpanId())
                : null;
    }

    /**
     * Marks how an attempt or a call ended: {@code failureClass} is the class of its error ({@code none} when clean),
     * {@code outcome} the attempt's status or the call's result.
     */
    public static void ended(Span span, String failureClass, String outcome) {
        span.setAttribute("redrive.class", failureClass);
        span.setAttribute("redrive.outcome", outcome);
        if (!failureClass.equals(WorkerMetrics.NONE)) {
            span.setStatus(StatusCode.ERROR, failureClass);
        }
    }
}
