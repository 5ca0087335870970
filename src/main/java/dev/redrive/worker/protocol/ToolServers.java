package dev.redrive.worker.protocol;

import dev.redrive.broker.Redis;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which tools the namespace's workers serve. Workers that serve different tools share one dispatch stream, so a
 * worker reads dispatches of tools it does not serve: it hands those on to the workers that do, and dead-letters one
 * as {@code no_worker_for_tool} only once no worker has announced its tool for the grace period. Every worker announces
 * each of its tools every few seconds in {@code {ns}:tool-workers} (field {@code "<tool> <consumer>"} → epoch millis)
 * and withdraws them when it stops gracefully; a tool met without any announcement is noted in
 * {@code {ns}:unserved-tools} (tool → epoch millis, first met), so that its grace runs from then.
 */
final class ToolServers {
    static final Duration ANNOUNCE_INTERVAL = Duration.ofSeconds(5);
    /** Announced this recently: a worker of the tool runs now, and a dispatch handed on is due at once. */
    private static final Duration LIVE = ANNOUNCE_INTERVAL.multipliedBy(3);
    /** How long a dispatch handed on waits while the tool's workers are away (restarting, deploying). */
    private static final Duration AWAY_WAIT = Duration.ofSeconds(30);

    /** What becomes of a dispatch of a tool this worker does not serve. */
    enum Verdict {
        /** A worker of the tool runs now: hand it on, due at once. */
        LIVE,
        /** The tool was served within the grace period, not now: hand it on, due after {@link #awayWait()}. */
        AWAY,
        /** No worker announced the tool for the grace period: dead-letter it as no_worker_for_tool. */
        NONE
    }

    private final Redis redis;
    private final Duration grace;

    ToolServers(Redis redis, Duration grace) {
        this.redis = redis;
        this.grace = grace;
    }

    /** Says that {@code consumer} serves {@code tools} now; a tool announced again is no longer unserved. */
    void announce(Collection<String> tools, String consumer, Instant now) {
        Map<String, String> announced = new LinkedHashMap<>();
        for (String tool : tools) {
            announced.put(field(tool, consumer), Long.toString(now.toEpochMilli()));
        }
        redis.sync().hset(redis.keys().toolWorkers(), announced);
        redis.sync().hdel(redis.keys().unservedTools(), tools.toArray(String[]::new));
    }

    /** A worker stopping gracefully: its tools are no longer served by it (others may serve them still). */
    void withdraw(Collection<String> tools, String consumer) {
        redis.sync().hdel(redis.keys().toolWorkers(), tools.stream().map(tool -> field(tool, consumer))
                .toArray(String[]::new));
    }

    Verdict of(String tool, Instant now) {
        Instant last = null;
        List<String> stale = new ArrayList<>();
        for (Map.Entry<String, String> announcement : redis.sync().hgetall(redis.keys().toolWorkers()).entrySet()) {
            Instant at = Instant.ofEpochMilli(Long.parseLong(announcement.getValue()));
            if (at.plus(grace).isBefore(now)) {
                // A worker that died without withdrawing; past the grace it tells nothing.
                stale.add(announcement.getKey());
            } else if (announcement.getKey().startsWith(tool + " ") && (last == null || at.isAfter(last))) {
                last = at;
            }
        }
        if (!stale.isEmpty()) {
            redis.sync().hdel(redis.keys().toolWorkers(), stale.toArray(String[]::new));
        }
        if (last != null) {
            return last.plus(LIVE).isBefore(now) ? Verdict.AWAY : Verdict.LIVE;
        }
        redis.sync().hsetnx(redis.keys().unservedTools(), tool, Long.toString(now.toEpochMilli()));
        String since = redis.sync().hget(redis.keys().unservedTools(), tool);
        Instant first = since == null ? now : Instant.ofEpochMilli(Long.parseLong(since));
        return first.plus(grace).isBefore(now) ? Verdict.NONE : Verdict.AWAY;
    }

    /** How long a dispatch handed on waits while its tool's workers are away: 30 s, or the grace when shorter. */
    Duration awayWait() {
        return grace.compareTo(AWAY_WAIT) < 0 ? grace : AWAY_WAIT;
    }

    /** Tool and consumer names match [A-Za-z0-9._-]+, so a space joins them unambiguously. */
    private static String field(String tool, String consumer) {
        return tool + " " + consumer;
    }
}
