package dev.redrive.report;

import dev.redrive.triage.decision.durable.BatchOutcomes;
import dev.redrive.triage.query.FingerprintGroup;

import java.time.Instant;
import java.util.List;

/**
 * What an incident report says, whatever its format: the operations with their evidence, checks and decisions, and
 * DLQ entries that have no operation.
 *
 * @param scope          "operation", "selection", "group", "batch" or "entry"
 * @param group          the fingerprint group's statistics for a group report, else null
 * @param batch          a batch report's batch and what became of each of its items, else null
 * @param entries        DLQ entries without an operation (messages dead-lettered as themselves)
 * @param omitted        operations of the group left out of the report to keep it readable
 * @param redactedFields the payload field names masked throughout
 */
public record IncidentReport(
        String title,
        String scope,
        Instant generatedAt,
        String namespace,
        String runtimeVersion,
        FingerprintGroup group,
        BatchOutcomes.Report batch,
        List<OperationReport> operations,
        List<EntryReport> entries,
        long omitted,
        List<String> redactedFields) {

    public IncidentReport {
        operations = List.copyOf(operations);
        entries = List.copyOf(entries);
        redactedFields = List.copyOf(redactedFields);
    }
}
