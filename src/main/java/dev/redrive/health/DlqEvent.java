package dev.redrive.health;

/** One event of the {@code {ns}:dlq} stream: an entry that has just been dead-lettered. */
public record DlqEvent(String streamId, long dlqEntryId, String operationId, String errorClass, String tool,
                       String fingerprint, String enteredAt) {
}
