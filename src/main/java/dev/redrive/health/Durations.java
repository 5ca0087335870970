package dev.redrive.health;

import java.time.Duration;

/** Durations the way an operator reads them: "3 h 12 min", "45 s", "120 ms". */
public final class Durations {
    private Durations() {
    }

    public static String human(Duration duration) {
        if (duration == null) {
            return "–";
        }
        long millis = Math.abs(duration.toMillis());
        String sign = duration.isNegative() ? "-" : "";
        if (millis < 1_000) {
            return sign + millis + " ms";
        }
        long seconds = millis / 1_000;
        if (seconds < 60) {
            long tenths = (millis % 1_000) / 100;
            return sign + (seconds < 10 && tenths > 0 ? seconds + "." + tenths : String.valueOf(seconds)) + " s";
        }
        long minutes = seconds / 60;
        if (minutes < 60) {
            return sign + minutes + " min" + (seconds % 60 == 0 ? "" : " " + seconds % 60 + " s");
        }
        long hours = minutes / 60;
        if (hours < 48) {
            return sign + hours + " h" + (minutes % 60 == 0 ? "" : " " + minutes % 60 + " min");
        }
        return sign + hours / 24 + " d" + (hours % 24 == 0 ? "" : " " + hours % 24 + " h");
    }
}
