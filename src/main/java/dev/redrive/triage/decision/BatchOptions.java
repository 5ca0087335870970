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
        if (itemsPerSecond < 0) {
            throw new IllegalArgumentException("the rate must be 0 (unlimited) or more items per second, got " + itemsPerSecond);
        }
    }

    public static BatchOptions dryRun(String operator, String reason) {
        return new BatchOptions(operator, reason, null, 0, true);
    }

    public static BatchOptions of(String operator, String reason, double itemsPerSecond) {
        return new BatchOptions(operator, reason, null, itemsPerSecond, false);
    }
}
