package dev.redrive.demo.sandbox;

import java.time.Duration;

/**
 * How much new work the sandbox sends while it runs, in operations per minute (0: none). The default keeps the live
 * views moving without keeping the queue-health alert red: the trickle stops feeding the DLQ once it grew by a few
 * dozen entries (see {@link LiveWorkload}).
 */
public record Trickle(int perMinute) {
    public static final int MAX_PER_MINUTE = 600;
    public static final Trickle DEFAULT = new Trickle(40);
    /** The shortest pause between two dispatches of the trickle: faster rates send several at each. */
    private static final Duration SHORTEST_INTERVAL = Duration.ofSeconds(3);

    public Trickle {
        if (perMinute < 0 || perMinute > MAX_PER_MINUTE) {
            throw new IllegalArgumentException("--trickle must be a number of operations per minute from 0 (none) to "
                    + MAX_PER_MINUTE + ", got " + perMinute);
        }
    }

    public boolean off() {
        return perMinute == 0;
    }

    /** The pause between two rounds of dispatches: a minute shared out, never under three seconds. */
    Duration interval() {
        Duration even = Duration.ofMinutes(1).dividedBy(Math.max(1, perMinute));
        return even.compareTo(SHORTEST_INTERVAL) < 0 ? SHORTEST_INTERVAL : even;
    }

    /** How many operations each round dispatches so that a minute holds {@link #perMinute}. */
    int perRound() {
        return Math.max(1, Math.round(perMinute * interval().toMillis() / 60_000f));
    }
}
