package dev.redrive.demo.sandbox;

/**
 * How many operations of each kind the incident seeds: {@link #FULL} gives a few hundred across the runs, {@link #SMALL}
 * one of each kind (fast enough for tests), still covering every failure class and every story.
 */
public record SeedSize(double factor) {
    public static final SeedSize FULL = new SeedSize(1.0);
    public static final SeedSize SMALL = new SeedSize(0.0);

    public SeedSize {
        if (factor < 0) {
            throw new IllegalArgumentException("the seed size factor must be 0 or more, got " + factor);
        }
    }

    /** {@code base} scaled, never less than one so that every kind is present. */
    int count(int base) {
        return Math.max(1, (int) Math.round(base * factor));
    }
}
