package dev.redrive.triage.decision;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.identity.OperationId;
import dev.redrive.store.audit.AuditAction;
import dev.redrive.store.audit.AuditLine;
import dev.redrive.store.audit.AuditLine.AuditSubject;
import dev.redrive.triage.detail.OperationRecord;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.triage.precondition.PreconditionEngine.Checked;
import dev.redrive.triage.precondition.PreconditionReport;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Publishes the dispatches of a redrive chunk's transaction once it committed, in one round trip. When that fails the
 * redrives stay recorded, each is NOT_PUBLISHED with an audit line, and a running worker's sweep publishes the PENDING
 * operations.
 */
final class RedriveDispatches {
    private final DispatchPublisher publisher;
    private final DecisionStore store;
    private final Clock clock;

    RedriveDispatches(DispatchPublisher publisher, DecisionStore store, Clock clock) {
        this.publisher = publisher;
        this.store = store;
        this.clock = clock;
    }

    /** What the redrive transaction issued, item by item: a result for the items it did not issue, else the redrive. */
    record Issued(DecisionResult[] results, List<Redrive> redrives, Instant at) {

        /** What the transaction records of each item: the redrive it issued, or the item's result. */
        List<BatchItem> items() {
            List<BatchItem> items = new ArrayList<>(results.length);
            Map<Integer, Redrive> issuedAt = redrives.stream().collect(Collectors.toMap(Redrive::index, r -> r));
            for (int i = 0; i < results.length; i++) {
                Redrive redrive = issuedAt.get(i);
                items.add(redrive == null ? BatchItem.of(results[i]) : new BatchItem(
                        redrive.checked().operation().operationId(), redrive.checked().report().dlqEntryId(),
                        DecisionOutcome.DONE, redrive.commandId(), List.of(), "redrive command " + redrive.commandId()
                        + " issued: attempt " + (redrive.checked().operation().attempt() + 1)));
            }
            return items;
        }
    }

    record Redrive(int index, Checked checked, UUID commandId) {
    }

    List<DecisionResult> publish(Issued issued, String operator, String reason) {
        DecisionResult[] results = issued.results();
        List<DispatchEnvelope> dispatches = issued.redrives().stream()
                .map(redrive -> dispatch(redrive, issued.at())).toList();
        RuntimeException failure = null;
        try {
            publisher.publishAll(dispatches);
        } catch (RuntimeException e) {
            failure = e;
        }
        if (failure != null) {
            String error = Objects.toString(failure.getMessage(), failure.getClass().getName());
            Instant failedAt = clock.instant();
            store.auditAll(issued.redrives().stream()
                    .map(redrive -> new AuditLine(failedAt, operator, AuditAction.REDRIVE_NOT_PUBLISHED,
                            new AuditSubject(redrive.checked().operation().operationId(),
                                    redrive.checked().report().dlqEntryId(), redrive.commandId()), reason,
                            Map.of("error", error)))
                    .toList());
        }
        for (Redrive redrive : issued.redrives()) {
            PreconditionReport report = redrive.checked().report();
            int newAttempt = report.fromAttempt() + 1;
            results[redrive.index()] = failure == null
                    ? new DecisionResult(DecisionKind.REDRIVE, DecisionOutcome.DONE, report.operationId(),
                    report.dlqEntryId(), "redrive command " + redrive.commandId() + " issued: attempt " + newAttempt
                    + " dispatched with schema version " + report.targetSchemaVersion(), report, redrive.commandId(),
                    newAttempt, operator, issued.at())
                    : new DecisionResult(DecisionKind.REDRIVE, DecisionOutcome.NOT_PUBLISHED, report.operationId(),
                    report.dlqEntryId(), "redrive command " + redrive.commandId() + " is recorded but its dispatch "
                    + "was not published (" + failure.getMessage() + "); a running worker's sweep re-publishes the "
                    + "PENDING operation after its grace period", report, redrive.commandId(), newAttempt, operator,
                    issued.at());
        }
        return Arrays.asList(results);
    }

    /** The redrive's dispatch: the operation's identity and payload at attempt + 1, with the command id. */
    private static DispatchEnvelope dispatch(Redrive redrive, Instant at) {
        OperationRecord operation = redrive.checked().operation();
        DispatchEnvelope original = new DispatchEnvelope(OperationId.parse(operation.operationId()), operation.attempt(),
                operation.tool(), operation.toolSchemaVersion(), operation.idempotencyKey(),
                TriageJson.compact(operation.payload()), operation.traceId(), operation.correlationId(),
                operation.runtimeVersion(), operation.dispatchedAt(), null, operation.lastErrorClass(), null,
                operation.approvalId(), null);
        return original.redrive(operation.attempt() + 1, redrive.commandId().toString(),
                redrive.checked().report().targetSchemaVersion(), at);
    }
}
