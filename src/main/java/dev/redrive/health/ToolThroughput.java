package dev.redrive.health;

/**
 * One tool's attempts over the last hour, as Prometheus has them from the workers' {@code redrive_attempts_total}.
 *
 * @param attemptsPerSecond attempts committed per second, averaged over the hour
 * @param failureRatio      the share of those attempts that did not succeed (a retry scheduled or a dead letter), 0
 *                          to 1; 0 when there were none
 */
public record ToolThroughput(String tool, double attemptsPerSecond, double failureRatio) {
}
