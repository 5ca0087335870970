package dev.redrive.triage.detail;

import java.util.List;
import java.util.Optional;

/**
 * Everything known about one operation: the record, its run, every attempt, its DLQ entries, reconciliations,
 * redrive commands and audit history, and what the operation would be checked against now.
 *
 * @param attempts                 oldest first
 * @param dlqEntries               newest first
 * @param reconciliations          oldest first
 * @param redriveCommands          oldest first
 * @param audit                    oldest first
 * @param currentToolSchemaVersion the tool's current schema version, null when no worker registered the tool
 * @param approval                 the approval the operation needs, null when it needs none (or the row is missing)
 * @param lineage                  the corrections it is linked to, both ways
 */
public record OperationDetails(
        OperationRecord operation,
        RunRecord run,
        List<AttemptRecord> attempts,
        List<DlqEntryRecord> dlqEntries,
        List<ReconciliationRecord> reconciliations,
        List<RedriveCommandRecord> redriveCommands,
        List<AuditEntry> audit,
        String currentToolSchemaVersion,
        ApprovalRecord approval,
        Lineage lineage) {

    public OperationDetails {
        attempts = List.copyOf(attempts);
        dlqEntries = List.copyOf(dlqEntries);
        reconciliations = List.copyOf(reconciliations);
        redriveCommands = List.copyOf(redriveCommands);
        audit = List.copyOf(audit);
    }

    public String operationId() {
        return operation.operationId();
    }

    /** The entry still waiting for a decision, if any. */
    public Optional<DlqEntryRecord> openEntry() {
        return dlqEntries.stream().filter(DlqEntryRecord::isOpen).findFirst();
    }

    /** The newest DLQ entry, decided or not. */
    public Optional<DlqEntryRecord> latestEntry() {
        return dlqEntries.stream().findFirst();
    }
}
