package dev.redrive.triage.detail;

import java.util.List;
import java.util.Optional;

/**
 * One DLQ entry with its own audit trail and, when it was entered for an operation, everything about that operation.
 *
 * @param audit     the audit lines naming this entry, oldest first
 * @param operation the entry's operation, null for a message dead-lettered as itself (a malformed dispatch)
 */
public record EntryDetails(DlqEntryRecord entry, List<AuditEntry> audit, OperationDetails operation) {

    public EntryDetails {
        audit = List.copyOf(audit);
    }

    public Optional<OperationDetails> ofOperation() {
        return Optional.ofNullable(operation);
    }
}
