package dev.redrive.report;

import dev.redrive.triage.detail.EntryDetails;
import dev.redrive.triage.precondition.PreconditionReport;

/**
 * A DLQ entry without an operation (a message dead-lettered as itself) in an incident report, already redacted.
 *
 * @param entryCheck the one check a decision on it is taken on: whether it is still open
 */
public record EntryReport(EntryDetails details, PreconditionReport entryCheck) {
}
