package dev.redrive.report;

import dev.redrive.triage.query.FingerprintGroup;

import java.time.Instant;
import java.util.List;

/**
 * What an incident report says, whatever its format: the operations with their evidence, checks and decisions.
 *
 * @param scope          "operation", "selection" or "group"
 * @param group          the fingerprint group's statistics for a group report, else null
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
        List<OperationReport> operations,
        long omitted,
        List<String> redactedFields) {

    public IncidentReport {
        operations = List.copyOf(operations);
        redactedFields = List.copyOf(redactedFields);
    }
}
