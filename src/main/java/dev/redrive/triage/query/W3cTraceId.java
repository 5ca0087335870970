package dev.redrive.triage.query;

import dev.redrive.envelope.Traceparent;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The W3C trace id an operator's trace filter stands for: the value itself when it is 32 hex digits (as a tracer shows
 * it; upper case is taken as lower case, the form a traceparent carries), or the trace id of a pasted traceparent.
 * Entries of dispatches that carried only a traceparent are found by it.
 */
final class W3cTraceId {
    private static final Pattern TRACE_ID = Pattern.compile("[0-9a-fA-F]{32}");

    private W3cTraceId() {
    }

    static Optional<String> of(String typed) {
        if (typed == null) {
            return Optional.empty();
        }
        if (TRACE_ID.matcher(typed).matches()) {
            return Optional.of(typed.toLowerCase(Locale.ROOT));
        }
        return Traceparent.parse(typed).map(Traceparent::traceId);
    }
}
