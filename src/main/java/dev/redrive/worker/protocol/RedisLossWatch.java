package dev.redrive.worker.protocol;

import dev.redrive.broker.Redis;
import io.lettuce.core.SetArgs;

import java.time.Instant;

/**
 * Notices that Redis lost the namespace's data through the marker key: present since a worker first set it, absent
 * after Redis restarted empty. Of all the workers that look, exactly one sets it again and learns of the loss, so one
 * worker publishes the lost work again rather than all of them.
 */
final class RedisLossWatch {
    private final Redis redis;

    RedisLossWatch(Redis redis) {
        this.redis = redis;
    }

    /** True when the marker was gone (and is set again now): what Redis held for the namespace may be lost. */
    boolean markerWasGone(Instant now) {
        return "OK".equals(redis.sync().set(redis.keys().marker(), now.toString(), SetArgs.Builder.nx()));
    }

    /** Removes the marker again, so that the next look (of any worker) recovers: the recovery that set it failed. */
    void forget() {
        redis.sync().del(redis.keys().marker());
    }
}
