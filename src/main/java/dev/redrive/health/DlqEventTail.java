package dev.redrive.health;

import dev.redrive.broker.Redis;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;

import java.util.List;
import java.util.Map;

/**
 * Follows the {@code {ns}:dlq} event stream from the moment it is started: each {@link #poll()} returns the events
 * that arrived since the previous one. Polling (XRANGE from the last id seen) keeps no connection blocked, so a
 * Redis restart costs one failed poll and nothing else.
 */
public final class DlqEventTail {
    private static final int MAX_PER_POLL = 1_000;

    private final Redis redis;
    private String lastId;

    /**
     * A tail that starts after the newest event present at its first poll: earlier events are already in
     * PostgreSQL's DLQ. Touches Redis only when polled.
     */
    public DlqEventTail(Redis redis) {
        this.redis = redis;
    }

    /**
     * The events that arrived since the last poll, oldest first (at most 1,000 at a time). The first poll only marks
     * where the tail starts and returns nothing.
     */
    public synchronized List<DlqEvent> poll() {
        if (lastId == null) {
            List<StreamMessage<String, String>> newest = redis.sync().xrevrange(redis.keys().dlq(),
                    Range.create("-", "+"), Limit.from(1));
            lastId = newest.isEmpty() ? "0-0" : newest.get(0).getId();
            return List.of();
        }
        List<StreamMessage<String, String>> messages = redis.sync().xrange(redis.keys().dlq(),
                Range.from(Range.Boundary.excluding(lastId), Range.Boundary.unbounded()), Limit.from(MAX_PER_POLL));
        if (!messages.isEmpty()) {
            lastId = messages.get(messages.size() - 1).getId();
        }
        return messages.stream().map(DlqEventTail::toEvent).toList();
    }

    private static DlqEvent toEvent(StreamMessage<String, String> message) {
        Map<String, String> body = message.getBody();
        long entryId;
        try {
            entryId = Long.parseLong(body.getOrDefault("dlq_entry_id", "0"));
        } catch (NumberFormatException e) {
            entryId = 0;
        }
        return new DlqEvent(message.getId(), entryId, body.get("operation_id"), body.get("error_class"),
                body.get("tool"), body.get("fingerprint"), body.get("entered_at"));
    }
}
