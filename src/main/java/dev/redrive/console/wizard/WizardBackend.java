package dev.redrive.console.wizard;

import dev.redrive.triage.decision.DecisionAccess;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.decision.ReconciliationResult;
import dev.redrive.triage.detail.OperationDetails;
import dev.redrive.triage.detail.ReconciliationOutcome;
import dev.redrive.triage.detail.ToolSchemaRecord;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.precondition.PreconditionReport;

import java.util.List;

/** What the reconciliation wizard asks of the triage core. Every call runs off the FX thread. */
public interface WizardBackend {
    OperationDetails load(String operationId);

    /** What the connected role may decide: a viewer is told up front that the database will refuse its decisions. */
    DecisionAccess access();

    /** The schema versions recorded for a tool, oldest first: what a changed schema is shown with. */
    List<ToolSchemaRecord> schemaVersions(String tool);

    /** Every redrive precondition against the store's facts now; writes nothing. */
    PreconditionReport check(DecisionTarget target);

    /** Asks the tool's reconciliation look-up and records its answer. */
    ReconciliationResult reconcileWithTool(String operationId, String operator);

    /** Records what the operator established about the side effect, with their evidence. */
    ReconciliationResult recordReconciliation(String operationId, ReconciliationOutcome outcome, String evidence,
                                              String operator);

    DecisionResult redrive(DecisionTarget target, String operator, String reason);

    DecisionResult resolve(DecisionTarget target, String operator, String reason);

    DecisionResult discard(DecisionTarget target, String operator, String reason);
}
