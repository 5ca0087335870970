package dev.redrive.worker.retry;

import dev.redrive.broker.Redis;
import dev.redrive.broker.RedisScript;
import dev.redrive.worker.retry.ToolGate.ToolBudget;
import io.lettuce.core.ScriptOutputType;

import java.time.Duration;
import java.time.Instant;

/**
 * Token buckets in Redis ({@code {ns}:tool-budget:<tool>}), shared by every worker of the namespace, so a tool's
 * budget holds for the whole fleet rather than per worker. Refilled by the Redis server's clock, which every worker
 * shares, whatever their own clocks say.
 */
public final class RedisTokenBuckets implements TokenBuckets {
    /** ARGV: permits per second, burst, "take" or "give". Returns the milliseconds until a permit is there, 0 if taken. */
    private static final RedisScript BUCKET = new RedisScript("""
            local time = redis.call('TIME')
            local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
            local rate = tonumber(ARGV[1]) / 1000
            local burst = tonumber(ARGV[2])
            local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
            local tokens = tonumber(state[1]) or burst
            local at = tonumber(state[2]) or now
            tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
            local wait = 0
            if ARGV[3] == 'give' then
                tokens = math.min(burst, tokens + 1)
            elseif tokens >= 1 then
                tokens = tokens - 1
            else
                wait = math.ceil((1 - tokens) / rate)
            end
            redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
            redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate) + 60000)
            return wait
            """);

    private final Redis redis;

    public RedisTokenBuckets(Redis redis) {
        this.redis = redis;
    }

    @Override
    public Duration take(String tool, ToolBudget budget, Instant now) {
        return Duration.ofMillis(call(tool, budget, "take"));
    }

    @Override
    public void giveBack(String tool, ToolBudget budget) {
        call(tool, budget, "give");
    }

    private long call(String tool, ToolBudget budget, String what) {
        Long wait = BUCKET.run(redis, ScriptOutputType.INTEGER, new String[]{redis.keys().toolBudget(tool)},
                String.valueOf(budget.permitsPerSecond()), String.valueOf(budget.burst()), what);
        return wait == null ? 0 : wait;
    }
}
