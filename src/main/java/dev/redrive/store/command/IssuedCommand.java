package dev.redrive.store.command;

import java.util.UUID;

/**
 * A redrive command as a decision issues it: which operation runs again, at which attempt and schema version, for which
 * DLQ entry, with the precondition results it passed (JSON text).
 */
public record IssuedCommand(UUID commandId, String operationId, long entryId, int fromAttempt, int toAttempt,
                            String schemaVersion, String preconditions) {
}
