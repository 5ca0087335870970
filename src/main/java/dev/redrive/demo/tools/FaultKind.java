package dev.redrive.demo.tools;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** The failures the demo tools can be asked to play, by the name used in a payload's {@code "fault"} field. */
public enum FaultKind {
    /** 429 with {@code Retry-After}. */
    RATE_LIMIT,
    /** 500. */
    TRANSIENT,
    /** 503. */
    DEPENDENCY_DOWN,
    /** 400. */
    INVALID,
    /** 403. */
    FORBIDDEN,
    /** Applies the effect, then the answer is lost (stalls past the client's timeout). */
    TIMEOUT_AFTER_APPLY,
    /** Stalls past the client's timeout without applying anything. */
    TIMEOUT_BEFORE_APPLY,
    /** Look-ups of the key answer 503: nobody can tell whether the effect happened. */
    LOOKUP_DOWN;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<FaultKind> fromWireName(String name) {
        return Arrays.stream(values()).filter(kind -> kind.wireName().equals(name)).findFirst();
    }

    /** Whether the fault concerns tool calls (all but {@link #LOOKUP_DOWN}, which concerns look-ups). */
    public boolean affectsCalls() {
        return this != LOOKUP_DOWN;
    }
}
