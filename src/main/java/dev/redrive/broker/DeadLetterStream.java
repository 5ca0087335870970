package dev.redrive.broker;

import dev.redrive.store.deadletter.DeadLetterEvent;
import io.lettuce.core.XAddArgs;

/**
 * The {@code {ns}:dlq} stream: one event per DLQ entry, published after the entry is committed in PostgreSQL. An
 * event may be published twice when a crash is repaired; consumers key on {@code dlq_entry_id}.
 */
public final class DeadLetterStream {
    private final Redis redis;

    public DeadLetterStream(Redis redis) {
        this.redis = redis;
    }

    /** @return the stream entry id of the event */
    public String publish(DeadLetterEvent event) {
        return redis.sync().xadd(redis.keys().dlq(), new XAddArgs(), event.fields());
    }
}
