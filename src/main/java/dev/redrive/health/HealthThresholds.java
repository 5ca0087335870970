package dev.redrive.health;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * When the DLQ needs an operator's attention. A threshold of zero (or a zero duration) is switched off.
 *
 * @param maxOpenDepth      open (undecided) entries allowed before alerting
 * @param maxNewPerMinute   entries arriving per minute allowed before alerting
 * @param maxOldestOpenAge  how long an entry may wait for a decision before alerting
 */
public record HealthThresholds(long maxOpenDepth, long maxNewPerMinute, Duration maxOldestOpenAge) {

    public static final HealthThresholds DEFAULTS = new HealthThresholds(100, 10, Duration.ofHours(1));

    public HealthThresholds {
        if (maxOpenDepth < 0 || maxNewPerMinute < 0 || maxOldestOpenAge == null || maxOldestOpenAge.isNegative()) {
            throw new IllegalArgumentException("alert thresholds must be zero (off) or positive, got depth "
                    + maxOpenDepth + ", new per minute " + maxNewPerMinute + ", oldest age " + maxOldestOpenAge);
        }
    }

    /** Every threshold the reading crosses, in a fixed order: depth, growth, age. */
    public List<HealthAlert> check(QueueHealth health) {
        List<HealthAlert> alerts = new ArrayList<>();
        if (maxOpenDepth > 0 && health.dlqOpen() > maxOpenDepth) {
            alerts.add(new HealthAlert(HealthAlert.Kind.DEPTH, health.dlqOpen() + " open DLQ entries (threshold "
                    + maxOpenDepth + ")"));
        }
        if (maxNewPerMinute > 0 && health.dlqNewLastMinute() > maxNewPerMinute) {
            alerts.add(new HealthAlert(HealthAlert.Kind.GROWTH, health.dlqNewLastMinute()
                    + " new DLQ entries in the last minute (threshold " + maxNewPerMinute + ")"));
        }
        Duration age = health.oldestOpenAge();
        if (!maxOldestOpenAge.isZero() && age != null && age.compareTo(maxOldestOpenAge) > 0) {
            alerts.add(new HealthAlert(HealthAlert.Kind.AGE, "oldest open DLQ entry waits for "
                    + Durations.human(age) + " (threshold " + Durations.human(maxOldestOpenAge) + ")"));
        }
        if (!health.unservedTools().isEmpty()) {
            // Not a threshold: a dispatch no worker can run is always worth saying.
            alerts.add(new HealthAlert(HealthAlert.Kind.NO_WORKER, "no worker serves " + String.join(", ",
                    health.unservedTools()) + ": their dispatches wait, then are dead-lettered as no_worker_for_tool"));
        }
        return alerts;
    }
}
