package dev.redrive.cli;

import dev.redrive.model.TypedDuration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.TemporalAccessor;
import java.util.Locale;
import java.util.Optional;

/**
 * An instant as an operator types it: ISO-8601 with an offset ({@code 2026-11-30T10:00:00Z}); a local date-time
 * ({@code 2026-11-30 10:00}, seconds optional, a {@code T} instead of the space too) or a local date
 * ({@code 2026-11-30}: its first moment) in the operator's zone; or a time before now ({@code -30m}, {@code -2h},
 * {@code -7d}, also {@code -45s}; days are calendar days in the zone).
 */
final class InstantInput {
    static final String EXPECTED = "expected an instant (2026-11-30T10:00:00Z), a local date-time (2026-11-30 10:00, "
            + "seconds optional), a local date (2026-11-30) or a time before now (-30m, -2h, -7d)";

    /** A date, then optionally a time, then optionally an offset: the three forms {@link #parse} tells apart. */
    private static final DateTimeFormatter DATE_TIME = new DateTimeFormatterBuilder()
            .parseCaseInsensitive()
            .append(DateTimeFormatter.ISO_LOCAL_DATE)
            .optionalStart().appendLiteral('T').append(DateTimeFormatter.ISO_LOCAL_TIME)
            .optionalStart().appendOffsetId().optionalEnd()
            .optionalEnd()
            .toFormatter(Locale.ROOT)
            .withResolverStyle(ResolverStyle.STRICT);

    private static final Instant FIRST = Instant.parse("0001-01-01T00:00:00Z");
    private static final Instant LAST = Instant.parse("9999-12-31T23:59:59.999999999Z");

    private final Clock clock;
    private final ZoneId zone;

    InstantInput(Clock clock, ZoneId zone) {
        this.clock = clock;
        this.zone = zone;
    }

    /** The instant the text names; an {@link IllegalArgumentException} saying which forms are expected otherwise. */
    Instant parse(String text) {
        Instant instant = named(text);
        // PostgreSQL's timestamps end in 294276 AD; ISO-8601 has four-digit years: the range both hold, and any
        // operator means.
        if (instant.isBefore(FIRST) || instant.isAfter(LAST)) {
            throw new IllegalArgumentException("'" + text + "' falls in the year " + instant.atZone(zone).getYear() + "; "
                    + "expected a time between 0001-01-01 and 9999-12-31");
        }
        return instant;
    }

    private Instant named(String text) {
        String value = text == null ? "" : text.strip();
        Optional<TypedDuration.Compact> beforeNow = value.startsWith("-")
                ? TypedDuration.compact(value.substring(1)) : Optional.empty();
        if (beforeNow.isPresent()) {
            // Days are the zone's calendar days: -1d at 14:00 is 14:00 yesterday, across a daylight-saving switch too.
            return clock.instant().atZone(zone).minus(beforeNow.get().amount(), beforeNow.get().unit()).toInstant();
        }
        String iso = value.length() > 10 && value.charAt(10) == ' ' ? value.substring(0, 10) + 'T' + value.substring(11) : value;
        try {
            TemporalAccessor parsed = DATE_TIME.parseBest(iso, OffsetDateTime::from, LocalDateTime::from, LocalDate::from);
            if (parsed instanceof OffsetDateTime offset) {
                return offset.toInstant();
            }
            if (parsed instanceof LocalDateTime local) {
                return local.atZone(zone).toInstant();
            }
            return ((LocalDate) parsed).atStartOfDay(zone).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(EXPECTED + ", got '" + text + "'", e);
        }
    }

    /** Picocli's converter for {@code --from} and {@code --to}: the system clock in the JVM's default zone. */
    static final class Converter implements ITypeConverter<Instant> {
        @Override
        public Instant convert(String value) {
            try {
                return new InstantInput(Clock.systemUTC(), ZoneId.systemDefault()).parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
