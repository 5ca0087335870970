package dev.redrive.model;

import java.time.Duration;

/** A duration in the form the CLI reads it back: 90s, 30m, 12h, 90d (the largest unit that divides it). */
public final class TypedDuration {
    private TypedDuration() {
    }

    public static String text(Duration duration) {
        long seconds = duration.toSeconds();
        if (seconds % 86_400 == 0) {
            return seconds / 86_400 + "d";
        }
        if (seconds % 3_600 == 0) {
            return seconds / 3_600 + "h";
        }
        if (seconds % 60 == 0) {
            return seconds / 60 + "m";
        }
        return seconds + "s";
    }
}
