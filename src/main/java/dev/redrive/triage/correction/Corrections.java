package dev.redrive.triage.correction;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.RuntimeVersion;
import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.envelope.EnvelopeCodec;
import dev.redrive.envelope.Traceparent;
import dev.redrive.identity.OperationId;
import dev.redrive.model.DecisionState;
import dev.redrive.store.Database;
import dev.redrive.store.StoreException;
import dev.redrive.store.audit.AuditAction;
import dev.redrive.store.audit.AuditLine;
import dev.redrive.store.audit.AuditLine.AuditSubject;
import dev.redrive.triage.correction.CorrectedPayload.RefusedPayloadException;
import dev.redrive.triage.correction.CorrectionStore.LostRaceException;
import dev.redrive.triage.decision.DecisionAccess;
import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.decision.DispatchPublisher;
import dev.redrive.triage.detail.DlqEntryRecord;
import dev.redrive.triage.detail.OperationDetailsLoader;
import dev.redrive.triage.detail.OperationRecord;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.precondition.PreconditionEngine;
import dev.redrive.triage.precondition.PreconditionId;
import dev.redrive.triage.precondition.PreconditionReport;
import dev.redrive.triage.precondition.PreconditionResult;
import dev.redrive.triage.redaction.Redactor;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Correct and redrive: a dead-lettered operation is replaced by the next logical attempt of its node, with a corrected
 * payload, its own operation id and idempotency key. Allowed on the checks of a redrive (the same engine) plus the
 * payload check; checked again inside the one transaction that records the new operation, its command, the original's
 * SUPERSEDED state and entry decision and the audit line (with the payload's diff, secrets masked). The original never
 * runs again. The new operation's dispatch is published after the commit; a worker's sweep publishes it if that fails.
 */
public final class Corrections {
    private final Database database;
    private final CorrectionStore store;
    private final PreconditionEngine engine;
    private final OperationDetailsLoader loader;
    private final DispatchPublisher publisher;
    private final Redactor redactor;
    private final Clock clock;

    public Corrections(Database database, DispatchPublisher publisher, Redactor redactor, Clock clock) {
        this.database = database;
        this.store = new CorrectionStore(database);
        this.engine = new PreconditionEngine(database, clock);
        this.loader = new OperationDetailsLoader(database);
        this.publisher = publisher;
        this.redactor = redactor;
        this.clock = clock;
    }

    /** Every check of the correction, writing nothing: a dry run. */
    public CorrectionResult check(DecisionTarget target, String payload) {
        Planned planned = plan(target, payload);
        if (!planned.report().allPassed()) {
            return refused(planned);
        }
        return result(DecisionOutcome.WOULD_PASS, planned, null, "every check passes: a correction would dispatch "
                + planned.correction().operationId() + " with schema version " + planned.report().targetSchemaVersion(),
                null, null);
    }

    /**
     * Records the correction and publishes its dispatch.
     *
     * @param payload the corrected payload as the operator typed it; a value that is exactly the mask keeps the
     *                original's stored value
     */
    public CorrectionResult correct(DecisionTarget target, String payload, String operator, String reason) {
        if (operator == null || operator.isBlank()) {
            throw new IllegalArgumentException("a correction needs the operator's name");
        }
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("a correction needs a reason");
        }
        Planned checked = plan(target, payload);
        if (!checked.report().allPassed()) {
            return refused(checked);
        }
        Planned recorded;
        try {
            recorded = store.jdbc().inTransaction(() -> record(target, payload, operator, reason));
        } catch (LostRaceException e) {
            return lostRace(checked, e.getMessage());
        } catch (StoreException e) {
            if (e.isUniqueViolation()) {
                return lostRace(checked, "operation " + checked.operationId() + " was corrected meanwhile");
            }
            if (!e.isRefused()) {
                throw e;
            }
            return result(DecisionOutcome.REFUSED, checked, null, "refused by the database: "
                    + DecisionAccess.whyRefused(database, e), null, null);
        }
        if (!recorded.report().allPassed()) {
            return refused(recorded);
        }
        return publish(recorded, operator, reason);
    }

    /** The checks, the merged payload and the dispatch a correction would publish. */
    private record Planned(PreconditionReport report, OperationRecord original, DispatchEnvelope correction,
                           PayloadDiff diff, UUID commandId, Instant at) {
        String operationId() {
            return report.operationId();
        }
    }

    private Planned plan(DecisionTarget target, String payload) {
        PreconditionReport redrive = engine.check(target);
        if (redrive.operationId() == null) {
            return new Planned(redrive, null, null, null, null, clock.instant());
        }
        OperationRecord original = loader.operation(redrive.operationId()).orElseThrow();
        List<PreconditionResult> results = new ArrayList<>(redrive.results());
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("max_bytes", EnvelopeCodec.DEFAULT_MAX_PAYLOAD_BYTES);
        JsonNode corrected;
        try {
            corrected = CorrectedPayload.merge(original.payload(), payload);
        } catch (RefusedPayloadException e) {
            results.add(PreconditionResult.fail(PreconditionId.CORRECTED_PAYLOAD, e.getMessage(), facts));
            return new Planned(withResults(redrive, results), original, null, null, null, clock.instant());
        }
        PayloadDiff diff = PayloadDiff.between(original.payload(), corrected, redactor);
        facts.put("changes", diff.changes().size());
        results.add(PreconditionResult.pass(PreconditionId.CORRECTED_PAYLOAD, diff.isEmpty()
                ? "the corrected payload is a JSON object within the size limit (and equal to the original)"
                : "the corrected payload is a JSON object within the size limit; " + diff.changes().size()
                + " change(s)", facts));
        Instant at = clock.instant();
        UUID commandId = UUID.randomUUID();
        OperationId next = new OperationId(original.runId(), original.nodeId(),
                store.highestLogicalAttempt(original.runId(), original.nodeId()) + 1);
        DispatchEnvelope correction = new DispatchEnvelope(next, 1, original.tool(), redrive.targetSchemaVersion(),
                next.idempotencyKey(), TriageJson.compact(corrected), original.traceId(), original.correlationId(),
                RuntimeVersion.wireValue(), at, null, null, commandId.toString(), original.approvalId(),
                Traceparent.current());
        return new Planned(withResults(redrive, results), original, correction, diff, commandId, at);
    }

    private Planned record(DecisionTarget target, String payload, String operator, String reason) {
        store.lock(engine.resolve(target).operationId());
        Planned planned = plan(target, payload);
        if (!planned.report().allPassed()) {
            return planned;
        }
        DispatchEnvelope correction = planned.correction();
        String correctionId = correction.operationId().value();
        long entryId = planned.report().dlqEntryId();
        store.insertCorrection(correction, planned.operationId());
        store.insertCommand(planned.commandId(), correction, entryId, operator, reason, planned.at(),
                planned.report().results());
        store.supersede(planned.operationId(), planned.at());
        store.supersedeEntry(entryId, planned.report().entryVersion(), correctionId, operator, reason, planned.at());
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("decision", DecisionState.SUPERSEDED.name());
        details.put("corrected_by", correctionId);
        details.put("idempotency_key", correction.idempotencyKey());
        details.put("target_schema_version", correction.toolSchemaVersion());
        details.put("payload_diff", planned.diff().changes());
        details.put("preconditions", planned.report().results());
        store.audit(new AuditLine(planned.at(), operator, AuditAction.CORRECT,
                new AuditSubject(planned.operationId(), entryId, planned.commandId()), reason, details));
        return planned;
    }

    private CorrectionResult publish(Planned recorded, String operator, String reason) {
        DispatchEnvelope correction = recorded.correction();
        try {
            publisher.publish(correction);
        } catch (RuntimeException e) {
            store.audit(new AuditLine(clock.instant(), operator, AuditAction.CORRECTION_NOT_PUBLISHED,
                    new AuditSubject(correction.operationId().value(), recorded.report().dlqEntryId(),
                            recorded.commandId()), reason,
                    Map.of("error", Objects.toString(e.getMessage(), e.getClass().getName()))));
            return result(DecisionOutcome.NOT_PUBLISHED, recorded, recorded.commandId(), "correction "
                    + correction.operationId() + " is recorded but its dispatch was not published (" + e.getMessage()
                    + "); a running worker's sweep re-publishes the PENDING operation after its grace period",
                    operator, recorded.at());
        }
        return result(DecisionOutcome.DONE, recorded, recorded.commandId(), "corrected by " + correction.operationId()
                + " (key " + correction.idempotencyKey() + ", schema version " + correction.toolSchemaVersion()
                + "); entry " + recorded.report().dlqEntryId() + " superseded", operator, recorded.at());
    }

    private CorrectionResult refused(Planned planned) {
        PreconditionReport report = planned.report();
        boolean decided = report.results().stream()
                .anyMatch(result -> result.id() == PreconditionId.ENTRY_OPEN && !result.passed()
                        && result.facts().get("decision_state") != null
                        && !DecisionState.OPEN.name().equals(result.facts().get("decision_state")));
        String message = decided ? report.result(PreconditionId.ENTRY_OPEN).explanation()
                : "blocked: " + report.failed().stream().map(PreconditionResult::explanation)
                .collect(Collectors.joining("; "));
        return result(decided ? DecisionOutcome.ALREADY_DECIDED : DecisionOutcome.BLOCKED, planned, null, message,
                null, null);
    }

    private CorrectionResult lostRace(Planned checked, String fallback) {
        String message = (checked.report().dlqEntryId() == null ? Optional.<DlqEntryRecord>empty()
                : loader.entry(checked.report().dlqEntryId()))
                .filter(entry -> !entry.isOpen())
                .map(PreconditionEngine::alreadyDecided)
                .orElse(fallback);
        return result(DecisionOutcome.ALREADY_DECIDED, checked, null, message, null, null);
    }

    private static CorrectionResult result(DecisionOutcome outcome, Planned planned, UUID commandId, String message,
                                           String operator, Instant at) {
        DispatchEnvelope correction = planned.correction();
        return new CorrectionResult(outcome, planned.report().operationId(), planned.report().dlqEntryId(),
                correction == null ? null : correction.operationId().value(),
                correction == null ? null : correction.idempotencyKey(), commandId,
                correction == null ? null : correction.toolSchemaVersion(), message, planned.report(), planned.diff(),
                operator, at);
    }

    private static PreconditionReport withResults(PreconditionReport report, List<PreconditionResult> results) {
        return new PreconditionReport(report.operationId(), report.dlqEntryId(), report.entryVersion(),
                report.fromAttempt(), report.targetSchemaVersion(), report.checkedAt(), results);
    }
}
