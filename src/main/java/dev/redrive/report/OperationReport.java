package dev.redrive.report;

import dev.redrive.triage.decision.verify.RedriveVerification;
import dev.redrive.triage.detail.OperationDetails;
import dev.redrive.triage.precondition.PreconditionReport;

/**
 * One operation in an incident report, its payloads already redacted.
 *
 * @param preconditions every redrive precondition checked at report time
 * @param verification  how the latest redrive went, null when it was never redriven
 */
public record OperationReport(OperationDetails details, PreconditionReport preconditions, RedriveVerification verification) {
}
