package dev.redrive.store.deadletter;

import dev.redrive.model.FailureClass;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** A DLQ entry as announced on the {@code {ns}:dlq} stream for live tails, alerting and broker-level consumers. */
public record DeadLetterEvent(long dlqEntryId, String operationId, FailureClass errorClass, String tool,
                              String fingerprint, Instant enteredAt) {

    /** The stream entry's fields. */
    public Map<String, String> fields() {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("dlq_entry_id", Long.toString(dlqEntryId));
        fields.put("operation_id", operationId == null ? "" : operationId);
        fields.put("error_class", errorClass.name());
        fields.put("tool", tool == null ? "" : tool);
        fields.put("fingerprint", fingerprint);
        fields.put("entered_at", enteredAt.toString());
        return fields;
    }
}
