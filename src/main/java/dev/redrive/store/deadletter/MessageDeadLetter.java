package dev.redrive.store.deadletter;

import dev.redrive.model.FailureClass;

import java.time.Instant;
import java.util.Map;

/**
 * A stream entry that could not be read as a dispatch: it is dead-lettered as itself (no operation row is
 * touched), keyed by its stream and entry id.
 */
public record MessageDeadLetter(String stream, String entryId, long deliveryCount, String consumer,
                                Map<String, String> rawMessage, FailureClass errorClass, String errorCode,
                                String errorMessage, String runtimeVersion, Instant enteredAt) {

    /** The field a letter carries instead of the raw fields when the store could not hold them. */
    public static final String UNSTORABLE_RAW_MESSAGE = "_unstorable";

    public String dedupKey() {
        return "msg:" + stream + ":" + entryId;
    }

    /** This letter with {@code why} in place of its raw fields, which the store could not hold. */
    public MessageDeadLetter withoutRawMessage(String why) {
        return new MessageDeadLetter(stream, entryId, deliveryCount, consumer, Map.of(UNSTORABLE_RAW_MESSAGE, why),
                errorClass, errorCode, errorMessage, runtimeVersion, enteredAt);
    }
}
