package dev.redrive.console.health;

import dev.redrive.health.HealthThresholds;

import java.time.Duration;
import java.util.prefs.Preferences;

/** The alert thresholds an operator chose, remembered per user. */
public final class ThresholdPreferences {
    private ThresholdPreferences() {
    }

    public static HealthThresholds load(Preferences node) {
        HealthThresholds defaults = HealthThresholds.DEFAULTS;
        return new HealthThresholds(
                node.getLong("alert.maxOpenDepth", defaults.maxOpenDepth()),
                node.getLong("alert.maxNewPerMinute", defaults.maxNewPerMinute()),
                Duration.ofMinutes(node.getLong("alert.maxOldestOpenMinutes", defaults.maxOldestOpenAge().toMinutes())));
    }

    public static void save(Preferences node, HealthThresholds thresholds) {
        node.putLong("alert.maxOpenDepth", thresholds.maxOpenDepth());
        node.putLong("alert.maxNewPerMinute", thresholds.maxNewPerMinute());
        node.putLong("alert.maxOldestOpenMinutes", thresholds.maxOldestOpenAge().toMinutes());
    }
}
