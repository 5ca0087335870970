package dev.redrive.envelope;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The W3C Trace Context {@code traceparent} a dispatch may carry, {@code 00-<trace id>-<parent id>-<flags>}: the
 * caller's span, so that the attempts continue the caller's trace. As the W3C recommendation asks of a receiver, a
 * value that does not parse is ignored (the attempt starts a trace of its own) rather than failing the work it rides
 * on; a version above 00 is read for its first four fields.
 */
public final class Traceparent {
    private static final Pattern FORMAT = Pattern.compile("[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}(-.*)?");
    private static final String ZERO_TRACE = "0".repeat(32);
    private static final String ZERO_SPAN = "0".repeat(16);

    private Traceparent() {
    }

    /** The value when it is a valid traceparent, else empty. */
    public static Optional<String> parse(String value) {
        if (value == null || !FORMAT.matcher(value).matches()) {
            return Optional.empty();
        }
        String version = value.substring(0, 2);
        if (version.equals("ff") || version.equals("00") && value.length() != 55
                || value.substring(3, 35).equals(ZERO_TRACE) || value.substring(36, 52).equals(ZERO_SPAN)) {
            return Optional.empty();
        }
        return Optional.of(value.substring(0, 55));
    }

    /** The traceparent of the current span (the caller's, when an OpenTelemetry SDK is installed), or null. */
    public static String current() {
        SpanContext context = Span.current().getSpanContext();
        return context.isValid() ? "00-" + context.getTraceId() + "-" + context.getSpanId() + "-"
                + context.getTraceFlags().asHex() : null;
    }

    /** The trace id of a valid traceparent. */
    public static String traceId(String traceparent) {
        return traceparent.substring(3, 35);
    }
}
