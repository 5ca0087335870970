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

    public String dedupKey() {
        return "msg:" + stream + ":" + entryId;
    }
}
