package dev.redrive.worker.protocol;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.broker.Redis;
import dev.redrive.secret.SecretScanner;
import dev.redrive.worker.stream.Delivery;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Deliveries of a stream entry that crashed the handler, kept in Redis next to the stream (delivery diagnostics, not
 * business state) until the entry is settled; a poison message's DLQ entry carries them as its delivery history.
 */
final class DeliveryHistory {
    private static final Logger LOG = LoggerFactory.getLogger(DeliveryHistory.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration KEEP = Duration.ofDays(7);
    private static final int MAX_MESSAGE = 1000;

    private final Redis redis;

    DeliveryHistory(Redis redis) {
        this.redis = redis;
    }

    /** Records one crashed delivery and returns the whole history of the entry as a JSON array. */
    String recordCrash(Delivery delivery, Throwable error, boolean inTool, Instant at) {
        record(delivery, error, inTool ? "tool" : "handler", at);
        return read(delivery.entryId());
    }

    /**
     * Records a delivery that failed before its operation was claimed (the store failed on it); returns how many
     * deliveries of the entry have failed so far.
     */
    int recordIntakeFailure(Delivery delivery, Throwable error, Instant at) {
        return (int) record(delivery, error, "intake", at);
    }

    private long record(Delivery delivery, Throwable error, String stage, Instant at) {
        Map<String, Object> crash = new LinkedHashMap<>();
        crash.put("delivery_id", delivery.entryId());
        crash.put("delivery_count", delivery.deliveryCount());
        crash.put("consumer", delivery.consumer());
        crash.put("at", at.toString());
        crash.put("stage", stage);
        crash.put("error_type", error.getClass().getName());
        // masked before it is cut: a cut through a secret would leave its start where no pattern can tell it is one
        String message = SecretScanner.defaults().mask(String.valueOf(error.getMessage()));
        crash.put("error_message", message.length() <= MAX_MESSAGE ? message : message.substring(0, MAX_MESSAGE));
        String key = key(delivery.entryId());
        long length;
        try {
            length = redis.sync().rpush(key, JSON.writeValueAsString(crash));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a map of strings and numbers is always JSON", e);
        }
        redis.sync().expire(key, KEEP);
        return length;
    }

    /** The crash history of an entry as a JSON array, {@code []} when it never crashed. */
    String read(String entryId) {
        List<String> crashes = redis.sync().lrange(key(entryId), 0, -1);
        return "[" + String.join(",", crashes) + "]";
    }

    /** Whether any recorded crash came out of the tool call. */
    static boolean anyInTool(String history) {
        try {
            for (JsonNode crash : JSON.readTree(history)) {
                if ("tool".equals(crash.path("stage").asText())) {
                    return true;
                }
            }
            return false;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("delivery history is written as JSON by this class", e);
        }
    }

    /**
     * Drops the histories of settled entries without waiting for the answer, so that the command rides along with
     * whatever is sent next on the connection (the ack); a history left behind expires by itself.
     */
    void forget(List<String> entryIds) {
        if (!entryIds.isEmpty()) {
            redis.async().del(entryIds.stream().map(this::key).toArray(String[]::new))
                    .exceptionally(failure -> {
                        LOG.debug("could not drop delivery histories; they expire by themselves", failure);
                        return null;
                    });
        }
    }

    private String key(String entryId) {
        return redis.keys().deliveries(entryId);
    }
}
