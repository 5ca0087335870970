package dev.redrive.console.health;

import dev.redrive.health.HealthAlert;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * One desktop notification per alert episode. An episode ends only once its threshold has stayed clear for
 * {@link #QUIET}: new entries per minute around the threshold (the sandbox's trickle) crossed and cleared it with
 * every other refresh, and each crossing notified again, all day.
 */
final class AlertEpisodes {
    static final Duration QUIET = Duration.ofMinutes(15);

    private final Map<HealthAlert.Kind, Instant> lastSeen = new EnumMap<>(HealthAlert.Kind.class);

    /** The alerts of a reading taken {@code at} that start an episode; all of them are remembered as seen then. */
    List<HealthAlert> starting(List<HealthAlert> alerts, Instant at) {
        List<HealthAlert> starting = alerts.stream().filter(alert -> {
            Instant seen = lastSeen.get(alert.kind());
            return seen == null || Duration.between(seen, at).compareTo(QUIET) > 0;
        }).toList();
        alerts.forEach(alert -> lastSeen.put(alert.kind(), at));
        return starting;
    }
}
