package dev.redrive.triage.decision;

/**
 * How a batch decision runs.
 *
 * @param schemaVersion  for redrives: the newer compatible tool schema version the operator chose, null = keep
 * @param itemsPerSecond the most items decided per second; 0 = as fast as possible
 * @param dryRun         check every item and report, write nothing
 */
public record BatchOptions(String operator, String reason, String schemaVersion, double itemsPerSecond, boolean dryRun) {

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
}
