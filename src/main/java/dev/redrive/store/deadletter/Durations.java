package dev.redrive.store.deadletter;

import java.time.Duration;

/** A retention period as an operator types it back: 90d, 12h, 30m, 45s (the largest unit that divides it). */
final class Durations {
    private Durations() {
    }

    static String text(Duration duration) {
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
