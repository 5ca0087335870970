package dev.redrive.report;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

/**
 * How reports write a moment: to the millisecond and with its zone, so readers in other places (and other tools'
 * logs) agree on when something happened. {@code 2026-11-30 01:30:00.000 UTC}, or with the offset and zone name.
 */
final class ReportTime {
    /** An ISO instant as the store writes it into facts: {@code 2026-11-30T01:30:00.123456Z}. */
    private static final Pattern ISO_INSTANT = Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z");

    private final DateTimeFormatter format;

    ReportTime(ZoneId zone) {
        String pattern = zone.normalized().equals(ZoneOffset.UTC) ? "uuuu-MM-dd HH:mm:ss.SSS 'UTC'"
                : zone instanceof ZoneOffset ? "uuuu-MM-dd HH:mm:ss.SSS xxx" : "uuuu-MM-dd HH:mm:ss.SSS xxx '('VV')'";
        this.format = DateTimeFormatter.ofPattern(pattern).withZone(zone);
    }

    String format(Instant at) {
        return at == null ? "" : format.format(at);
    }

    /**
     * A value for a report cell: instants in this form, and so are ISO instants inside text (the triage core writes
     * them into facts and explanations); anything else as is.
     */
    String text(Object value) {
        if (value instanceof Instant at) {
            return format(at);
        }
        if (value instanceof String text) {
            return ISO_INSTANT.matcher(text).replaceAll(match -> {
                try {
                    return java.util.regex.Matcher.quoteReplacement(format(Instant.parse(match.group())));
                } catch (DateTimeParseException e) {
                    return java.util.regex.Matcher.quoteReplacement(match.group());
                }
            });
        }
        return value == null ? "" : value.toString();
    }
}
