package dev.redrive.worker.retry;

import dev.redrive.broker.Redis;
import dev.redrive.broker.RedisScript;
import dev.redrive.model.FailureClass;
import io.lettuce.core.ScriptOutputType;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/** Tool pauses in the namespace's {@code {ns}:tool-pauses} hash, so every worker of the namespace honours them. */
public final class RedisToolPauses implements ToolPauses {
    /** Sets the pause unless a later one is already there: workers seeing the same outage never shorten it. */
    private static final RedisScript PUBLISH = new RedisScript("""
            local current = redis.call('HGET', KEYS[1], ARGV[1])
            if current and tonumber(string.match(current, '^%d+')) >= tonumber(ARGV[2]) then
                return 0
            end
            redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. ' ' .. ARGV[3])
            return 1
            """);

    private final Redis redis;

    public RedisToolPauses(Redis redis) {
        this.redis = redis;
    }

    @Override
    public void publish(String tool, Instant until, FailureClass because) {
        PUBLISH.run(redis, ScriptOutputType.INTEGER, new String[]{redis.keys().toolPauses()},
                tool, String.valueOf(until.toEpochMilli()), because.name());
    }

    @Override
    public Map<String, ToolGate.Closed> read() {
        Map<String, ToolGate.Closed> pauses = new HashMap<>();
        redis.sync().hgetall(redis.keys().toolPauses()).forEach((tool, value) -> {
            String[] parts = value.split(" ", 2);
            try {
                pauses.put(tool, new ToolGate.Closed(Instant.ofEpochMilli(Long.parseLong(parts[0])),
                        FailureClass.valueOf(parts[parts.length - 1])));
            } catch (IllegalArgumentException e) {
                // Not a pause this runtime can read (another runtime's newer format): its own pauses still hold.
            }
        });
        return pauses;
    }
}
