package dev.redrive.console.detail;

import dev.redrive.triage.detail.AttemptRecord;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Where "open in tracer" goes, from a connection profile's two templates: a trace's URL ({@code {trace_id}}) and,
 * optionally, a span's ({@code {trace_id}} and {@code {span_id}}). An attempt whose span a tracer recorded opens at
 * that span when there is a span template, else at its trace; without a recorded span, at the operation's trace id.
 */
public record TracerLinks(String traceTemplate, String spanTemplate) {
    public static final TracerLinks NONE = new TracerLinks("", "");

    public TracerLinks {
        traceTemplate = traceTemplate == null ? "" : traceTemplate.strip();
        spanTemplate = spanTemplate == null ? "" : spanTemplate.strip();
    }

    /** The trace's URL; empty without a template or a trace id. */
    public String trace(String traceId) {
        if (traceTemplate.isEmpty() || traceId == null || traceId.isBlank()) {
            return "";
        }
        return traceTemplate.replace("{trace_id}", encoded(traceId));
    }

    /** The attempt's span when it has one and there is a span template, else the trace of its span; empty otherwise. */
    public String attempt(AttemptRecord attempt) {
        if (!attempt.hasSpan()) {
            return "";
        }
        if (spanTemplate.isEmpty()) {
            return trace(attempt.traceId());
        }
        return spanTemplate.replace("{trace_id}", encoded(attempt.traceId())).replace("{span_id}", encoded(attempt.spanId()));
    }

    /**
     * What the operation's "open in tracer" opens: the span of its latest traced attempt (the one that ended where the
     * operation is now) when there is a span template; else the trace its dispatch named ({@code traceId}, as sent),
     * else the trace of that attempt.
     */
    public String operation(List<AttemptRecord> attempts, String traceId) {
        AttemptRecord traced = attempts.stream().filter(AttemptRecord::hasSpan).reduce((a, b) -> b).orElse(null);
        if (traced != null && !spanTemplate.isEmpty()) {
            return attempt(traced);
        }
        String sent = trace(traceId);
        return !sent.isEmpty() || traced == null ? sent : trace(traced.traceId());
    }

    private static String encoded(String id) {
        return URLEncoder.encode(id, StandardCharsets.UTF_8);
    }
}
