package dev.redrive.console.wizard;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.triage.correction.CorrectionResult;
import dev.redrive.triage.decision.DecisionAccess;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.decision.ReconciliationResult;
import dev.redrive.triage.decision.batch.BatchListener;
import dev.redrive.triage.decision.batch.BatchReport;
import dev.redrive.triage.decision.verify.RedriveVerification;
import dev.redrive.triage.detail.DlqEntryRecord;
import dev.redrive.triage.detail.OperationDetails;
import dev.redrive.triage.detail.ToolSchemaRecord;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.precondition.PreconditionReport;
import dev.redrive.triage.redaction.Redactor;
import dev.redrive.triage.request.RequestOptions;
import dev.redrive.triage.request.Submission;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** What the reconciliation wizard asks of the triage core. Every call runs off the FX thread. */
public interface WizardBackend {
    OperationDetails load(String operationId);

    /** One DLQ entry: the evidence of an entry without an operation of its own. */
    DlqEntryRecord entry(long entryId);

    /** The rules the evidence is masked by: a correction's diff masks by the same. */
    Redactor redactor();

    /** What the connected role may decide: a viewer is told up front that the database will refuse its decisions. */
    DecisionAccess access();

    /** The schema versions recorded for a tool, oldest first: what a changed schema is shown with. */
    List<ToolSchemaRecord> schemaVersions(String tool);

    /** Every redrive precondition against the store's facts now; writes nothing. */
    PreconditionReport check(DecisionTarget target);

    /** Asks the tool's reconciliation look-up and records its answer. */
    ReconciliationResult reconcileWithTool(String operationId, String operator);

    /**
     * Whether a redrive command did what it should, as {@code op show} and reports say it (the tool counts the
     * effects); empty when the command is not in the store.
     */
    Optional<RedriveVerification> verify(UUID commandId);

    /**
     * Records what the operator established about the side effect, with their evidence and, for APPLIED, the tool's
     * result (null: none), which a resolve then takes.
     */
    ReconciliationResult recordReconciliation(String operationId, ReconciliationOutcome outcome, String evidence,
                                              JsonNode result, String operator);

    DecisionResult redrive(DecisionTarget target, String operator, String reason);

    /**
     * Takes one decision on many items a chunk at a time, as {@code redrive OP...} does: each chunk's items checked
     * again, recorded and audited in one transaction and its dispatches published together; {@code itemsPerSecond}
     * paces it (0 = as fast as it goes), and the listener hears each item and may stop it between chunks.
     */
    BatchReport decideBatch(DecisionKind kind, List<DecisionTarget> targets, double itemsPerSecond, String operator,
                            String reason, BatchListener listener);

    /**
     * Whether the namespace's four-eyes policy makes this decision on these items wait for a second operator, and
     * which rule of it says so; empty when it would be taken at once.
     */
    Optional<String> wouldWait(DecisionKind kind, List<DecisionTarget> targets);

    /**
     * Records the decision as one request for a second operator's approval when the policy covers it (as the CLI's
     * decision commands do); empty when it does not, and the wizard takes it itself.
     */
    Optional<Submission> requestIfCovered(DecisionKind kind, List<DecisionTarget> targets, RequestOptions options,
                                          String operator, String reason);

    /** Resolves with {@code result}, or with the latest APPLIED reconciliation's when it is null. */
    DecisionResult resolve(DecisionTarget target, JsonNode result, String operator, String reason);

    DecisionResult discard(DecisionTarget target, String operator, String reason);

    /**
     * Every check of a correction with {@code payload}, writing nothing: which operation and idempotency key it would
     * dispatch. A value that is exactly the mask keeps the stored value, as in {@link #correct}.
     */
    CorrectionResult checkCorrection(DecisionTarget target, String payload);

    /** Replaces the operation by the node's next logical attempt with {@code payload}, and publishes its dispatch. */
    CorrectionResult correct(DecisionTarget target, String payload, String operator, String reason);
}
