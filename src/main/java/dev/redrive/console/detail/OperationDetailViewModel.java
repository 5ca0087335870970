package dev.redrive.console.detail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.timeline.TimelineAttempt;
import dev.redrive.console.timeline.TimelineData;
import dev.redrive.model.SideEffectState;
import dev.redrive.report.Redactor;
import dev.redrive.triage.detail.AttemptRecord;
import dev.redrive.triage.detail.AuditEntry;
import dev.redrive.triage.detail.DlqEntryRecord;
import dev.redrive.triage.detail.OperationDetails;
import dev.redrive.triage.detail.OperationRecord;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Objects;
import java.util.concurrent.Callable;

/**
 * One operation with its evidence, as the detail pane shows it. Loads off the FX thread; a newer selection wins over
 * an older load that finishes late.
 */
public final class OperationDetailViewModel {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneId.systemDefault());

    /** Loads everything about one operation; runs in the background. */
    @FunctionalInterface
    public interface DetailSource {
        OperationDetails load(String operationId);
    }

    private final DetailSource source;
    private final UiExecutor executor;
    private final Redactor redactor;
    private final String tracerUrlTemplate;

    private final ReadOnlyObjectWrapper<OperationDetails> details = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<DlqEntryRecord> entry = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper loaded = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper decidable = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("Select a DLQ entry to see its operation.");
    private final ReadOnlyStringWrapper operationId = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper decision = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper runId = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper nodeId = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper logicalAttempt = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper idempotencyKey = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper stream = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper entryId = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper deliveryCount = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper consumer = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper lastError = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper traceId = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper correlationId = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper tracerUrl = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper runtimeVersion = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper dispatchedSchema = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper currentSchema = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper schemaChanged = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper schemaNote = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<SideEffectState> sideEffect = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper payload = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<TimelineData> timeline = new ReadOnlyObjectWrapper<>(TimelineData.EMPTY);
    private final ObservableList<AttemptRecord> attempts = FXCollections.observableArrayList();
    private final ObservableList<AuditEntry> audit = FXCollections.observableArrayList();
    // Held here: a read-only view follows its list only weakly, so a fresh one per call loses its listeners.
    private final ObservableList<AttemptRecord> readOnlyAttempts = FXCollections.unmodifiableObservableList(attempts);
    private final ObservableList<AuditEntry> readOnlyAudit = FXCollections.unmodifiableObservableList(audit);
    private long ticket;
    private String shownOperation;
    private long shownEntry;

    /** {@code redactor} masks everything loaded (payload, results, error texts, evidence, reasons) before it is shown. */
    public OperationDetailViewModel(DetailSource source, UiExecutor executor, Redactor redactor,
                                    String tracerUrlTemplate) {
        this.source = source;
        this.executor = executor;
        this.redactor = redactor;
        this.tracerUrlTemplate = tracerUrlTemplate == null ? "" : tracerUrlTemplate;
    }

    /** Shows the operation of a DLQ entry; {@code dlqEntryId} picks which of its entries the metadata comes from. */
    public void show(String operation, long dlqEntryId) {
        if (operation == null) {
            return;
        }
        shownOperation = operation;
        shownEntry = dlqEntryId;
        long mine = ++ticket;
        loading.set(true);
        message.set("Loading " + operation + "…");
        Callable<OperationDetails> load = () -> redactor.redact(source.load(operation));
        executor.submit("Loading operation " + operation, load, loadedDetails -> {
            if (mine == ticket) {
                loading.set(false);
                apply(loadedDetails, dlqEntryId);
            }
        }, failure -> {
            if (mine == ticket) {
                loading.set(false);
                message.set(failure.message());
                executor.report(failure);
            }
        });
    }

    /** Loads the shown operation again (after a decision). */
    public void refresh() {
        show(shownOperation, shownEntry);
    }

    void apply(OperationDetails loadedDetails, long dlqEntryId) {
        OperationRecord operation = loadedDetails.operation();
        DlqEntryRecord shown = loadedDetails.dlqEntries().stream().filter(e -> e.id() == dlqEntryId).findFirst()
                .orElseGet(() -> loadedDetails.latestEntry().orElse(null));
        details.set(loadedDetails);
        entry.set(shown);
        decidable.set(shown != null && shown.isOpen());
        operationId.set(operation.operationId());
        status.set(operation.status().name() + " · attempt " + operation.attempt());
        runId.set(operation.runId() + (loadedDetails.run() == null ? "" : "  (" + loadedDetails.run().status() + ")"));
        nodeId.set(operation.nodeId());
        logicalAttempt.set(String.valueOf(operation.logicalAttempt()));
        idempotencyKey.set(operation.idempotencyKey());
        traceId.set(Objects.toString(operation.traceId(), ""));
        correlationId.set(Objects.toString(operation.correlationId(), ""));
        tracerUrl.set(tracerUrl(tracerUrlTemplate, operation.traceId()));
        runtimeVersion.set(Objects.toString(shown != null && shown.runtimeVersion() != null ? shown.runtimeVersion()
                : operation.runtimeVersion(), ""));
        String atFailure = shown != null && shown.toolSchemaVersion() != null ? shown.toolSchemaVersion()
                : operation.toolSchemaVersion();
        String now = loadedDetails.currentToolSchemaVersion();
        dispatchedSchema.set(operation.tool() + " v" + atFailure);
        currentSchema.set(now == null ? "not registered by any worker" : operation.tool() + " v" + now);
        schemaChanged.set(now != null && !now.equals(atFailure));
        schemaNote.set(schemaChanged.get() ? "changed since failure: v" + atFailure + " → v" + now : "");
        sideEffect.set(sideEffectNow(operation, shown));
        if (shown != null) {
            stream.set(Objects.toString(shown.stream(), ""));
            entryId.set(Objects.toString(shown.entryId(), ""));
            deliveryCount.set(Objects.toString(shown.deliveryCount(), ""));
            consumer.set(Objects.toString(shown.consumer(), ""));
            lastError.set(shown.errorClass() + (shown.errorCode() == null ? "" : " " + shown.errorCode()) + ": "
                    + shown.errorMessage());
            decision.set(shown.isOpen() ? "OPEN · waiting for a decision"
                    : shown.decisionState() + " by " + shown.decidedBy() + " at " + TIME.format(shown.decidedAt())
                    + (shown.decisionReason() == null ? "" : " · " + shown.decisionReason()));
        } else {
            stream.set("");
            entryId.set("");
            deliveryCount.set("");
            consumer.set("");
            lastError.set("");
            decision.set("not in the DLQ");
        }
        payload.set(pretty(operation.payload()));
        attempts.setAll(loadedDetails.attempts());
        audit.setAll(loadedDetails.audit());
        timeline.set(timelineOf(loadedDetails, shown));
        message.set("");
        loaded.set(true);
    }

    private static String pretty(JsonNode payload) {
        if (payload == null || payload.isNull()) {
            return "(no payload)";
        }
        return payload.toPrettyString();
    }

    /** A reconciliation on the operation wins; otherwise the state the entry was dead-lettered with. */
    static SideEffectState sideEffectNow(OperationRecord operation, DlqEntryRecord entry) {
        SideEffectState state = operation.sideEffect();
        boolean reconciled = state == SideEffectState.APPLIED || state == SideEffectState.NOT_APPLIED;
        return reconciled || entry == null ? state : entry.sideEffect();
    }

    /** The attempts of an operation as the timeline draws them, up to the moment {@code entry} was dead-lettered. */
    public static TimelineData timelineOf(OperationDetails details, DlqEntryRecord entry) {
        return new TimelineData(details.attempts().stream().map(attempt -> new TimelineAttempt(attempt.attempt(),
                        attempt.startedAt(), attempt.finishedAt(), attempt.outcome(),
                        attempt.errorClass() == null ? null : attempt.errorClass().name(), attempt.errorMessage(),
                        attempt.retryAfterMs() == null ? null : Duration.ofMillis(attempt.retryAfterMs()),
                        attempt.nextEligibleAt())).toList(),
                entry == null ? null : entry.enteredAt());
    }

    /** The template with {@code {trace_id}} replaced, URL-encoded; empty without a template or a trace id. */
    static String tracerUrl(String template, String traceId) {
        if (template == null || template.isBlank() || traceId == null || traceId.isBlank()) {
            return "";
        }
        return template.replace("{trace_id}", URLEncoder.encode(traceId, StandardCharsets.UTF_8));
    }

    public ReadOnlyObjectProperty<OperationDetails> detailsProperty() { return details.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<DlqEntryRecord> entryProperty() { return entry.getReadOnlyProperty(); }
    public ReadOnlyBooleanProperty loadedProperty() { return loaded.getReadOnlyProperty(); }
    /** The shown entry still waits for a decision: the wizard, resolve and discard apply. */
    public ReadOnlyBooleanProperty decidableProperty() { return decidable.getReadOnlyProperty(); }
    public ReadOnlyBooleanProperty loadingProperty() { return loading.getReadOnlyProperty(); }
    public ReadOnlyStringProperty messageProperty() { return message.getReadOnlyProperty(); }
    public ReadOnlyStringProperty operationIdProperty() { return operationId.getReadOnlyProperty(); }
    public ReadOnlyStringProperty statusProperty() { return status.getReadOnlyProperty(); }
    public ReadOnlyStringProperty decisionProperty() { return decision.getReadOnlyProperty(); }
    public ReadOnlyStringProperty runIdProperty() { return runId.getReadOnlyProperty(); }
    public ReadOnlyStringProperty nodeIdProperty() { return nodeId.getReadOnlyProperty(); }
    public ReadOnlyStringProperty logicalAttemptProperty() { return logicalAttempt.getReadOnlyProperty(); }
    public ReadOnlyStringProperty idempotencyKeyProperty() { return idempotencyKey.getReadOnlyProperty(); }
    public ReadOnlyStringProperty streamProperty() { return stream.getReadOnlyProperty(); }
    public ReadOnlyStringProperty entryIdProperty() { return entryId.getReadOnlyProperty(); }
    public ReadOnlyStringProperty deliveryCountProperty() { return deliveryCount.getReadOnlyProperty(); }
    public ReadOnlyStringProperty consumerProperty() { return consumer.getReadOnlyProperty(); }
    public ReadOnlyStringProperty lastErrorProperty() { return lastError.getReadOnlyProperty(); }
    public ReadOnlyStringProperty traceIdProperty() { return traceId.getReadOnlyProperty(); }
    public ReadOnlyStringProperty correlationIdProperty() { return correlationId.getReadOnlyProperty(); }
    public ReadOnlyStringProperty tracerUrlProperty() { return tracerUrl.getReadOnlyProperty(); }
    public ReadOnlyStringProperty runtimeVersionProperty() { return runtimeVersion.getReadOnlyProperty(); }
    public ReadOnlyStringProperty dispatchedSchemaProperty() { return dispatchedSchema.getReadOnlyProperty(); }
    public ReadOnlyStringProperty currentSchemaProperty() { return currentSchema.getReadOnlyProperty(); }
    public ReadOnlyBooleanProperty schemaChangedProperty() { return schemaChanged.getReadOnlyProperty(); }
    public ReadOnlyStringProperty schemaNoteProperty() { return schemaNote.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<SideEffectState> sideEffectProperty() { return sideEffect.getReadOnlyProperty(); }
    public ReadOnlyStringProperty payloadProperty() { return payload.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<TimelineData> timelineProperty() { return timeline.getReadOnlyProperty(); }
    public ObservableList<AttemptRecord> attempts() { return readOnlyAttempts; }
    public ObservableList<AuditEntry> audit() { return readOnlyAudit; }
}
