package dev.redrive.triage.decision.batch;

/**
 * How a batch decision runs.
 *
 * @param schemaVersion  for redrives: the newer compatible tool schema version the operator chose, null = keep
 * @param itemsPerSecond the most items decided per second; 0 = as fast as possible
 * @param dryRun         check every item and report, write nothing
 */
public record BatchOptions(String operator, String reason, String schemaVersion, double itemsPerSecond, boolean dryRun) {
    /** Items checked and recorded in one transaction when nothing slows the batch down. */
    static final int CHUNK = 1_000;

    public BatchOptions {
        // NaN compares false with everything and Infinity would sleep 0 s: both would pass a plain "< 0".
        if (!(itemsPerSecond >= 0) || Double.isInfinite(itemsPerSecond)) {
            throw new IllegalArgumentException("the rate must be a number of items per second, 0 (unlimited) or more, "
                    + "got " + itemsPerSecond);
        }
    }

    public static BatchOptions dryRun(String operator, String reason) {
        return new BatchOptions(operator, reason, null, 0, true);
    }

    public static BatchOptions of(String operator, String reason, double itemsPerSecond) {
        return new BatchOptions(operator, reason, null, itemsPerSecond, false);
    }

    /**
     * How many items go in one chunk: as many as fit in a tenth of a second at the configured rate (so a paced batch
     * still trickles), at most {@value #CHUNK}.
     */
    public int chunkSize() {
        if (dryRun || itemsPerSecond <= 0) {
            return CHUNK;
        }
        return (int) Math.max(1, Math.min(CHUNK, itemsPerSecond / 10));
    }

    /** A batch that decides (not a dry run) says who decides and why. */
    public void requireOperatorAndReason() {
        requireText(operator, "a batch decision needs the operator's name");
        requireText(reason, "a batch decision needs a reason");
    }

    private static void requireText(String value, String message) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(message);
        }
    }
}
