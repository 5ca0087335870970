package dev.redrive.health;

import dev.redrive.broker.Redis;
import dev.redrive.broker.StreamKeys;
import dev.redrive.store.Database;
import dev.redrive.store.Jdbc;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.models.stream.PendingMessage;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Reads a {@link QueueHealth} from Redis (dispatch stream, consumer group, retry set) and PostgreSQL (the DLQ). */
public final class QueueHealthReader {
    /** How many pending entries are looked at for idle times; XPENDING returns them oldest id first. */
    static final int PENDING_SAMPLE = 100;
    private static final int PENDING_SHOWN = 10;
    /** How many unread entries a Redis without XINFO's "lag" (before 7) has counted before the health says "?". */
    private static final int LAG_COUNTED = 10_000;

    private final Jdbc jdbc;
    private final Redis redis;
    private final Clock clock;

    public QueueHealthReader(Database database, Redis redis, Clock clock) {
        this.jdbc = database.jdbc();
        this.redis = redis;
        this.clock = clock;
    }

    public QueueHealth read() {
        Instant now = clock.instant();
        RedisClusterCommands<String, String> commands = redis.sync();
        StreamKeys keys = redis.keys();
        String dispatch = keys.dispatch();
        boolean streamExists = commands.exists(dispatch) > 0;
        long length = streamExists ? commands.xlen(dispatch) : 0;
        Long lag = streamExists ? groupLag(commands, dispatch) : Long.valueOf(0);
        List<QueueHealth.PendingDelivery> pending = streamExists && groupExists(commands, dispatch)
                ? pending(commands, dispatch) : List.of();
        long pendingCount = streamExists && groupExists(commands, dispatch)
                ? commands.xpending(dispatch, StreamKeys.WORKER_GROUP).getCount() : 0;
        Duration oldestIdle = pending.isEmpty() ? null : pending.get(0).idle();

        long retrySize = commands.zcard(keys.retry());
        List<ScoredValue<String>> first = commands.zrangeWithScores(keys.retry(), 0, 0);
        Instant nextDue = first.isEmpty() ? null : scoreToInstant(first.get(0).getScore());

        DlqDepth dlq = DlqDepth.read(jdbc, now);
        return new QueueHealth(now, length, lag, pendingCount, oldestIdle,
                pending.subList(0, Math.min(PENDING_SHOWN, pending.size())), retrySize, nextDue,
                dlq.open(), dlq.newLastMinute(), dlq.newLastHour(), dlq.oldestOpen(),
                commands.hkeys(keys.unservedTools()).stream().sorted().toList());
    }

    private static boolean groupExists(RedisClusterCommands<String, String> commands, String stream) {
        return commands.xinfoGroups(stream).stream().map(QueueHealthReader::fields)
                .anyMatch(group -> StreamKeys.WORKER_GROUP.equals(String.valueOf(group.get("name"))));
    }

    /**
     * XINFO GROUPS "lag" (Redis 7+), null when the server cannot tell (e.g. after entries were deleted). Redis 6.2 has
     * no "lag": the entries after the group's last-delivered-id are counted, up to {@link #LAG_COUNTED}; past that,
     * null.
     */
    private static Long groupLag(RedisClusterCommands<String, String> commands, String stream) {
        for (Object raw : commands.xinfoGroups(stream)) {
            Map<String, Object> group = fields(raw);
            if (StreamKeys.WORKER_GROUP.equals(String.valueOf(group.get("name")))) {
                if (group.containsKey("lag")) {
                    return group.get("lag") instanceof Number number ? Long.valueOf(number.longValue()) : null;
                }
                String lastDelivered = String.valueOf(group.get("last-delivered-id"));
                long after = commands.xrange(stream, Range.from(Range.Boundary.excluding(lastDelivered),
                        Range.Boundary.unbounded()), Limit.from(LAG_COUNTED + 1)).size();
                return after <= LAG_COUNTED ? Long.valueOf(after) : null;
            }
        }
        return commands.xlen(stream);
    }

    private static List<QueueHealth.PendingDelivery> pending(RedisClusterCommands<String, String> commands, String stream) {
        List<PendingMessage> messages = commands.xpending(stream, StreamKeys.WORKER_GROUP, Range.create("-", "+"),
                Limit.from(PENDING_SAMPLE));
        return messages.stream()
                .map(message -> new QueueHealth.PendingDelivery(message.getId(), message.getConsumer(),
                        message.getSinceLastDelivery(), message.getRedeliveryCount()))
                .sorted(Comparator.comparing(QueueHealth.PendingDelivery::idle).reversed())
                .toList();
    }

    private static Map<String, Object> fields(Object raw) {
        Map<String, Object> fields = new HashMap<>();
        if (raw instanceof List<?> list) {
            for (int i = 0; i + 1 < list.size(); i += 2) {
                fields.put(String.valueOf(list.get(i)), list.get(i + 1));
            }
        }
        return fields;
    }

    /** The retry set is scored by next_eligible_at in epoch milliseconds; epoch seconds are accepted too. */
    static Instant scoreToInstant(double score) {
        long value = (long) score;
        return value < 100_000_000_000L ? Instant.ofEpochSecond(value) : Instant.ofEpochMilli(value);
    }
}
