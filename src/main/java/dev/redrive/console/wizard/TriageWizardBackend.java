package dev.redrive.console.wizard;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.services.TriageServices;
import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.triage.correction.CorrectionResult;
import dev.redrive.triage.correction.Corrections;
import dev.redrive.triage.decision.DecisionAccess;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.decision.ReconciliationResult;
import dev.redrive.triage.decision.batch.BatchDecisions;
import dev.redrive.triage.decision.batch.BatchListener;
import dev.redrive.triage.decision.batch.BatchOptions;
import dev.redrive.triage.decision.batch.BatchReport;
import dev.redrive.triage.decision.lookup.SideEffectLookup;
import dev.redrive.triage.decision.verify.RedriveVerification;
import dev.redrive.triage.decision.verify.RedriveVerifier;
import dev.redrive.triage.detail.DlqEntryRecord;
import dev.redrive.triage.detail.OperationDetails;
import dev.redrive.triage.detail.OperationDetailsLoader;
import dev.redrive.triage.detail.ToolSchemaRecord;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.precondition.PreconditionReport;
import dev.redrive.triage.redaction.Redactor;
import dev.redrive.triage.request.DecisionRequests;
import dev.redrive.triage.request.RequestKind;
import dev.redrive.triage.request.RequestOptions;
import dev.redrive.triage.request.Submission;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The wizard's backend on the triage core: the decisions and corrections services, the details loader and the tools'
 * look-ups.
 */
public final class TriageWizardBackend implements WizardBackend {
    private final TriageServices services;
    private final Decisions decisions;
    private final Corrections corrections;
    private final OperationDetailsLoader loader;
    private final SideEffectLookup lookup;
    private final RedriveVerifier verifier;
    private final Redactor redactor;
    private final DecisionRequests requests;
    private final BatchDecisions batches;

    /**
     * @param lookup   the tools' look-ups: reconciliation, and the verification of a redrive
     * @param redactor masks the evidence and the precondition facts the wizard shows, and the corrections' diffs
     */
    public TriageWizardBackend(TriageServices services, SideEffectLookup lookup, Redactor redactor) {
        this.services = services;
        this.decisions = services.decisions();
        this.corrections = services.corrections(redactor);
        this.loader = services.operationDetails();
        this.lookup = lookup;
        this.verifier = services.verifier(lookup);
        this.redactor = redactor;
        this.requests = services.requests(redactor);
        this.batches = services.batchDecisions();
    }

    @Override
    public Redactor redactor() {
        return redactor;
    }

    @Override
    public DecisionAccess access() {
        return services.access();
    }

    @Override
    public OperationDetails load(String operationId) {
        return redactor.redact(loader.require(operationId));
    }

    @Override
    public DlqEntryRecord entry(long entryId) {
        return redactor.redact(loader.entry(entryId).orElseThrow(() -> loader.unknownEntry(entryId)));
    }

    @Override
    public List<ToolSchemaRecord> schemaVersions(String tool) {
        return loader.schemaVersions(tool);
    }

    @Override
    public PreconditionReport check(DecisionTarget target) {
        return redactor.redact(decisions.checkRedrive(target).preconditions());
    }

    @Override
    public ReconciliationResult reconcileWithTool(String operationId, String operator) {
        return decisions.reconcileWithTool(operationId, lookup, operator);
    }

    @Override
    public Optional<RedriveVerification> verify(UUID commandId) {
        return verifier.verify(commandId);
    }

    @Override
    public ReconciliationResult recordReconciliation(String operationId, ReconciliationOutcome outcome, String evidence,
                                                     JsonNode result, String operator) {
        return decisions.recordReconciliation(operationId, outcome, evidence, result, operator);
    }

    @Override
    public DecisionResult redrive(DecisionTarget target, String operator, String reason) {
        return decisions.redrive(target, operator, reason);
    }

    @Override
    public BatchReport decideBatch(DecisionKind kind, List<DecisionTarget> targets, double itemsPerSecond,
                                   String operator, String reason, BatchListener listener) {
        BatchOptions options = BatchOptions.of(operator, reason, itemsPerSecond);
        return switch (kind) {
            case REDRIVE -> batches.redrive(targets, options, listener);
            case RESOLVE -> batches.resolve(targets, null, options, listener);
            case DISCARD -> batches.discard(targets, options, listener);
            case CORRECT -> throw new IllegalArgumentException("a correction takes one operation");
        };
    }

    @Override
    public Optional<String> wouldWait(DecisionKind kind, List<DecisionTarget> targets) {
        return requests.wouldWait(RequestKind.of(kind), targets);
    }

    @Override
    public Optional<Submission> requestIfCovered(DecisionKind kind, List<DecisionTarget> targets, RequestOptions options,
                                                 String operator, String reason) {
        return requests.submitIfCovered(RequestKind.of(kind), targets, null, options, operator, reason);
    }

    @Override
    public DecisionResult resolve(DecisionTarget target, JsonNode result, String operator, String reason) {
        return decisions.resolve(target, result, operator, reason);
    }

    @Override
    public DecisionResult discard(DecisionTarget target, String operator, String reason) {
        return decisions.discard(target, operator, reason);
    }

    @Override
    public CorrectionResult checkCorrection(DecisionTarget target, String payload) {
        return corrections.check(target, payload);
    }

    @Override
    public CorrectionResult correct(DecisionTarget target, String payload, String operator, String reason) {
        return corrections.correct(target, payload, operator, reason);
    }
}
