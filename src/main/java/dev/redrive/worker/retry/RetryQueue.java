package dev.redrive.worker.retry;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.broker.Redis;
import dev.redrive.broker.RedisScript;
import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.envelope.EnvelopeCodec;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScriptOutputType;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code {ns}:retry} sorted set: dispatches waiting for their next_eligible_at (the score, in epoch millis).
 * A member is the dispatch's fields as a JSON array of alternating names and values, in the codec's order, so the
 * same scheduled retry written twice (a repair after a crash) is one member.
 */
public final class RetryQueue {
    private static final ObjectMapper JSON = new ObjectMapper();

    /* Atomic per call: a due member is removed and published together, so two schedulers never promote it twice. */
    private static final RedisScript PROMOTE = new RedisScript("""
            local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
            for _, member in ipairs(due) do
                redis.call('XADD', KEYS[2], '*', unpack(cjson.decode(member)))
                redis.call('ZREM', KEYS[1], member)
            end
            return #due
            """);

    private final Redis redis;
    private final EnvelopeCodec codec = new EnvelopeCodec();

    public RetryQueue(Redis redis) {
        this.redis = redis;
    }

    /** Adds dispatches that carry their next_eligible_at. */
    public void schedule(List<DispatchEnvelope> envelopes) {
        if (envelopes.isEmpty()) {
            return;
        }
        List<ScoredValue<String>> members = new ArrayList<>(envelopes.size());
        for (DispatchEnvelope envelope : envelopes) {
            if (envelope.nextEligibleAt() == null) {
                throw new IllegalArgumentException("a scheduled dispatch needs next_eligible_at: " + envelope.operationId());
            }
            members.add(ScoredValue.just(envelope.nextEligibleAt().toEpochMilli(), member(envelope)));
        }
        @SuppressWarnings("unchecked")
        ScoredValue<String>[] array = members.toArray(ScoredValue[]::new);
        redis.sync().zadd(redis.keys().retry(), array);
    }

    /** Moves up to {@code limit} due dispatches to the dispatch stream; returns how many moved. */
    public long promoteDue(Instant now, int limit) {
        Long moved = PROMOTE.run(redis, ScriptOutputType.INTEGER,
                new String[]{redis.keys().retry(), redis.keys().dispatch()},
                Long.toString(now.toEpochMilli()), Integer.toString(limit));
        return moved == null ? 0 : moved;
    }

    /** How many dispatches wait in the retry set, due or not. */
    public long size() {
        return redis.sync().zcard(redis.keys().retry());
    }

    private String member(DispatchEnvelope envelope) {
        List<String> flat = new ArrayList<>();
        for (Map.Entry<String, String> field : codec.encode(envelope).entrySet()) {
            flat.add(field.getKey());
            flat.add(field.getValue());
        }
        try {
            return JSON.writeValueAsString(flat);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a list of strings is always JSON", e);
        }
    }
}
