package dev.redrive.worker.stream;

import dev.redrive.broker.Redis;
import dev.redrive.broker.RedisScript;
import io.lettuce.core.ScriptOutputType;

/**
 * Keeps a stream bounded: trims it to its newest {@code retention} entries, but never an entry a consumer group has
 * not read yet or is still working on (pending). One script per call, so the entries to keep are decided and the
 * trim done in one step however many workers trim at once.
 */
public final class StreamTrimmer {
    /*
     * MINID removes the entries older than a threshold. The threshold is the oldest of: the entry right after the
     * last one retention lets go, each group's first pending entry, and the entry right after each group's last
     * delivered one. Entry ids compare as (milliseconds, sequence) pairs.
     */
    private static final RedisScript TRIM = new RedisScript("""
            local keep = tonumber(ARGV[1])
            local length = redis.call('XLEN', KEYS[1])
            if length <= keep then return 0 end
            local function parse(id)
                local ms, seq = string.match(id, '^(%d+)-(%d+)$')
                return tonumber(ms), tonumber(seq)
            end
            local function older(a, b)
                local am, as = parse(a)
                local bm, bs = parse(b)
                return am < bm or (am == bm and as < bs)
            end
            local function after(id)
                local ms, seq = parse(id)
                return string.format('%.0f-%.0f', ms, seq + 1)
            end
            local excess = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', length - keep)
            local threshold = after(excess[#excess][1])
            for _, group in ipairs(redis.call('XINFO', 'GROUPS', KEYS[1])) do
                local name, last
                for i = 1, #group, 2 do
                    if group[i] == 'name' then name = group[i + 1] end
                    if group[i] == 'last-delivered-id' then last = group[i + 1] end
                end
                if older(after(last), threshold) then threshold = after(last) end
                local pending = redis.call('XPENDING', KEYS[1], name)
                if pending[1] > 0 and older(pending[2], threshold) then threshold = pending[2] end
            end
            return redis.call('XTRIM', KEYS[1], 'MINID', threshold)
            """);

    private final Redis redis;

    public StreamTrimmer(Redis redis) {
        this.redis = redis;
    }

    /** Trims {@code stream} to at most {@code retention} entries, keeping every unread or pending one; returns how many went. */
    public long trim(String stream, long retention) {
        Long trimmed = TRIM.run(redis, ScriptOutputType.INTEGER, new String[]{stream}, Long.toString(retention));
        return trimmed == null ? 0 : trimmed;
    }
}
