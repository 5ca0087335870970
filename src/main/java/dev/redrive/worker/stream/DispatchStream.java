package dev.redrive.worker.stream;

import dev.redrive.broker.Redis;
import dev.redrive.broker.StreamKeys;
import io.lettuce.core.Consumer;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisBusyException;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAutoClaimArgs;
import io.lettuce.core.XClaimArgs;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import dev.redrive.broker.BinaryConnection;
import io.lettuce.core.models.stream.ClaimedMessages;
import io.lettuce.core.models.stream.PendingMessage;
import io.lettuce.core.models.stream.PendingMessages;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The consumer side of {@code {ns}:dispatch} for one consumer of group {@code workers}: batched reads of new entries,
 * re-claims of entries left idle past the lease time by a consumer that died, and acks. Blocking reads use a
 * connection of their own.
 */
public final class DispatchStream implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DispatchStream.class);

    private final Redis redis;
    private final String stream;
    private final Consumer<String> consumer;
    private final BinaryConnection readConnection;
    private String claimCursor = "0-0";
    private volatile boolean groupLost;

    public DispatchStream(Redis redis, String consumerName) {
        this.redis = redis;
        this.stream = redis.keys().dispatch();
        this.consumer = Consumer.from(StreamKeys.WORKER_GROUP, consumerName);
        this.readConnection = redis.newBinaryConnection();
    }

    /** Creates the consumer group (and the stream) unless they exist; entries already in the stream are read too. */
    public void ensureGroup() {
        try {
            redis.sync().xgroupCreate(XReadArgs.StreamOffset.from(stream, "0"), StreamKeys.WORKER_GROUP,
                    XGroupCreateArgs.Builder.mkstream());
        } catch (RedisBusyException alreadyThere) {
            // BUSYGROUP: another worker created it first.
        }
    }

    /** Reads up to {@code count} entries never delivered to the group, waiting at most {@code block} for the first. */
    public List<Delivery> readNew(int count, Duration block) {
        List<StreamMessage<String, byte[]>> messages = recreatingGroup(() -> readConnection.sync().xreadgroup(consumer,
                XReadArgs.Builder.count(count).block(block), XReadArgs.StreamOffset.lastConsumed(stream)));
        if (messages == null) {
            return List.of();
        }
        List<Delivery> deliveries = new ArrayList<>(messages.size());
        for (StreamMessage<String, byte[]> message : messages) {
            deliveries.add(delivery(message, 1));
        }
        return deliveries;
    }

    /**
     * Takes over up to {@code count} entries another consumer (or this one before a restart) has held idle for at
     * least {@code minIdle}, with their delivery counts. Walks the pending list a page per call.
     */
    public List<Delivery> claimStale(int count, Duration minIdle) {
        ClaimedMessages<String, byte[]> claimed = recreatingGroup(() -> readConnection.sync().xautoclaim(stream,
                new XAutoClaimArgs<String>().consumer(consumer).minIdleTime(minIdle).startId(claimCursor).count(count)));
        if (claimed == null) {
            claimCursor = "0-0";
            return List.of();
        }
        claimCursor = claimed.getId() == null ? "0-0" : claimed.getId();
        List<StreamMessage<String, byte[]>> messages = claimed.getMessages();
        if (messages.isEmpty()) {
            return List.of();
        }
        Map<String, Long> counts = deliveryCounts(messages);
        List<Delivery> deliveries = new ArrayList<>(messages.size());
        for (StreamMessage<String, byte[]> message : messages) {
            deliveries.add(delivery(message, counts.getOrDefault(message.getId(), 1L)));
        }
        return deliveries;
    }

    /**
     * Runs a read of the group; when Redis answers NOGROUP the group (and the stream) is created again and the read
     * returns nothing this time, so a worker keeps consuming after Redis lost its data instead of failing forever. (What
     * the lost stream held is published again from PostgreSQL: see the worker's Redis loss watch.)
     */
    private <T> T recreatingGroup(Supplier<T> read) {
        try {
            return read.get();
        } catch (RedisCommandExecutionException e) {
            if (e.getMessage() == null || !e.getMessage().startsWith("NOGROUP")) {
                throw e;
            }
            LOG.warn("consumer group {} of {} is gone (Redis lost its data?); creating it again", StreamKeys.WORKER_GROUP,
                    stream);
            // Flagged before the group exists again, so whoever sees the new group also sees that the old one was lost.
            groupLost = true;
            ensureGroup();
            return null;
        }
    }

    private Delivery delivery(StreamMessage<String, byte[]> message, long deliveryCount) {
        StrictUtf8.Decoded decoded = StrictUtf8.decode(message.getBody());
        return new Delivery(stream, message.getId(), decoded.fields(), deliveryCount, consumer.getName(),
                decoded.undecodable());
    }

    private Map<String, Long> deliveryCounts(List<StreamMessage<String, byte[]>> messages) {
        String first = messages.get(0).getId();
        String last = messages.get(messages.size() - 1).getId();
        List<PendingMessage> pending = redis.sync().xpending(stream, consumer, Range.create(first, last),
                Limit.from(Math.max(messages.size() * 4L, 100)));
        Map<String, Long> counts = new HashMap<>();
        for (PendingMessage entry : pending) {
            counts.put(entry.getId(), entry.getRedeliveryCount());
        }
        return counts;
    }

    /**
     * Marks entries this consumer is still working on as freshly handled: resets their idle time without counting a
     * delivery (XCLAIM JUSTID), so that no consumer re-claims them as stale and their delivery count stays as it was.
     * Call only for entries whose lease this worker has just renewed.
     */
    public void touch(Collection<String> entryIds) {
        if (!entryIds.isEmpty()) {
            recreatingGroup(() -> redis.sync().xclaim(stream, consumer, new XClaimArgs().minIdleTime(0).justid(),
                    entryIds.toArray(String[]::new)));
        }
    }

    /**
     * The time (from its id, the Redis server's clock) of the oldest entry the group has not read yet or has read and
     * not acked: before it, the stream holds nothing still to do. Empty when there is none, or no group.
     */
    public Optional<Instant> oldestUndone() {
        Optional<String> lastDelivered = lastDelivered();
        if (lastDelivered.isEmpty()) {
            return Optional.empty();
        }
        Instant oldest = null;
        for (StreamMessage<String, String> entry : redis.sync().xrange(stream, Range.create(lastDelivered.get(), "+"),
                Limit.from(2))) {
            if (!entry.getId().equals(lastDelivered.get())) {
                oldest = entryTime(entry.getId());
                break;
            }
        }
        PendingMessages pending = redis.sync().xpending(stream, StreamKeys.WORKER_GROUP);
        if (pending.getCount() > 0 && pending.getMessageIds().getLower().getValue() != null) {
            Instant firstPending = entryTime(pending.getMessageIds().getLower().getValue());
            oldest = oldest == null || firstPending.isBefore(oldest) ? firstPending : oldest;
        }
        return Optional.ofNullable(oldest);
    }

    /** Whether the group exists (it does not once Redis lost the stream, until a worker creates it again). */
    public boolean groupExists() {
        return lastDelivered().isPresent();
    }

    /** The group's last delivered entry id; empty when there is no such group (or no stream). */
    private Optional<String> lastDelivered() {
        List<Object> groups;
        try {
            groups = redis.sync().xinfoGroups(stream);
        } catch (RedisCommandExecutionException noSuchStream) {
            return Optional.empty();
        }
        for (Object group : groups) {
            List<?> fields = (List<?>) group;
            boolean ours = false;
            String last = null;
            for (int i = 0; i + 1 < fields.size(); i += 2) {
                String name = String.valueOf(fields.get(i));
                if (name.equals("name")) {
                    ours = StreamKeys.WORKER_GROUP.equals(String.valueOf(fields.get(i + 1)));
                } else if (name.equals("last-delivered-id")) {
                    last = String.valueOf(fields.get(i + 1));
                }
            }
            if (ours) {
                return Optional.ofNullable(last);
            }
        }
        return Optional.empty();
    }

    /** Whether a read found the group gone (and created it again) since the last call: Redis lost the stream. */
    public boolean takeGroupLost() {
        boolean lost = groupLost;
        groupLost = false;
        return lost;
    }

    private static Instant entryTime(String entryId) {
        return Instant.ofEpochMilli(Long.parseLong(entryId.substring(0, entryId.indexOf('-'))));
    }

    /** Acks entries; call only once what they asked for is durably committed. */
    public void ack(Collection<String> entryIds) {
        if (!entryIds.isEmpty()) {
            // Entries of a group Redis lost are gone with it: nothing is left to ack.
            recreatingGroup(() -> redis.sync().xack(stream, StreamKeys.WORKER_GROUP, entryIds.toArray(String[]::new)));
        }
    }

    @Override
    public void close() {
        readConnection.close();
    }
}
