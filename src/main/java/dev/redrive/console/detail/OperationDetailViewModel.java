package dev.redrive.console.detail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.timeline.TimelineAttempt;
import dev.redrive.console.timeline.TimelineData;
import dev.redrive.envelope.Traceparent;
import dev.redrive.model.OperationStatus;
import dev.redrive.model.SideEffectState;
import dev.redrive.triage.redaction.Redactor;
import dev.redrive.triage.detail.AttemptRecord;
import dev.redrive.triage.detail.AuditEntry;
import dev.redrive.triage.detail.DlqEntryRecord;
import dev.redrive.triage.detail.EntryDetails;
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

import java.time.Duration;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import dev.redrive.console.ui.VersionText;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * One operation with its evidence, as the detail pane shows it; or one DLQ entry alone when the worker dead-lettered a
 * message as itself (malformed, or reusing an operation id with other parameters): such an entry has no operation of
 * its own, even when it names one, and only its own facts are shown. Loads off the FX thread; a newer selection wins
 * over an older load that finishes late.
 */
public final class OperationDetailViewModel {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneId.systemDefault());

    /** Loads everything about one operation; runs in the background. */
    @FunctionalInterface
    public interface DetailSource {
        OperationDetails load(String operationId);
    }

    /** Loads one DLQ entry, with its operation when it is that operation's own entry; runs in the background. */
    @FunctionalInterface
    public interface EntrySource {
        EntryDetails load(long dlqEntryId);
    }

    /** Why an entry without an operation offers only discard and resolve. */
    public static final String NO_OPERATION = "No operation: the worker could not take this message as a dispatch, so "
            + "nothing ran and nothing can be redriven; discard or resolve the entry.";

    private final DetailSource source;
    private final EntrySource entries;
    private final UiExecutor executor;
    private final Redactor redactor;
    private final TracerLinks tracer;

    private final ReadOnlyObjectWrapper<OperationDetails> details = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<DlqEntryRecord> entry = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper loaded = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper decidable = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper entryAlone = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper redrivable = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper waitsForRetry = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("Select a DLQ entry to see its operation.");
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper shownId = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper operationId = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper claimedOperation = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper tool = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper received = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper rawMessage = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper decision = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper corrects = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper correctedBy = new ReadOnlyStringWrapper("");
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
    private final ReadOnlyStringWrapper traceparent = new ReadOnlyStringWrapper("");
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
    private Runnable showAgain = () -> { };

    /** {@code redactor} masks everything loaded (payload, raw messages, error texts, evidence, reasons) before it is shown. */
    public OperationDetailViewModel(DetailSource source, EntrySource entries, UiExecutor executor, Redactor redactor,
                                    TracerLinks tracer) {
        this.source = source;
        this.entries = entries;
        this.executor = executor;
        this.redactor = redactor;
        this.tracer = tracer;
    }

    /**
     * Shows the operation of a DLQ entry; {@code dlqEntryId} picks which of its entries the metadata comes from.
     * Without an operation, the entry alone.
     */
    public void show(String operation, long dlqEntryId) {
        if (operation == null) {
            showEntry(dlqEntryId);
            return;
        }
        load("Loading " + operation, "Loading operation " + operation, () -> redactor.redact(source.load(operation)),
                loadedDetails -> apply(loadedDetails, dlqEntryId), () -> show(operation, dlqEntryId));
    }

    /** Shows a DLQ entry as selected in a list: its operation when it is that operation's own entry, else the entry alone. */
    public void showEntry(long dlqEntryId) {
        load("Loading DLQ entry " + dlqEntryId, "Loading DLQ entry " + dlqEntryId,
                () -> redactor.redact(entries.load(dlqEntryId)), this::apply, () -> showEntry(dlqEntryId));
    }

    private <T> void load(String shownWhileLoading, String task, Callable<T> loader, Consumer<T> apply, Runnable again) {
        showAgain = again;
        long mine = ++ticket;
        loading.set(true);
        message.set(shownWhileLoading + "…");
        executor.submit(task, loader, result -> {
            if (mine == ticket) {
                loading.set(false);
                apply.accept(result);
            }
        }, failure -> {
            if (mine == ticket) {
                loading.set(false);
                message.set(failure.message());
                executor.report(failure);
            }
        });
    }

    /**
     * Follows a correction's link: shows that operation, with its open entry (or its newest one; none when it never
     * failed).
     */
    public void showOperation(String operation) {
        show(operation, 0);
    }

    /** Loads what is shown again (after a decision). */
    public void refresh() {
        showAgain.run();
    }

    void apply(EntryDetails found) {
        if (found.operation() != null) {
            apply(found.operation(), found.entry().id());
        } else {
            applyEntryAlone(found);
        }
    }

    void apply(OperationDetails loadedDetails, long dlqEntryId) {
        OperationRecord operation = loadedDetails.operation();
        DlqEntryRecord shown = loadedDetails.dlqEntries().stream().filter(e -> e.id() == dlqEntryId).findFirst()
                .orElseGet(() -> loadedDetails.latestEntry().orElse(null));
        details.set(loadedDetails);
        entry.set(shown);
        entryAlone.set(false);
        boolean entryOpen = shown != null && shown.isOpen();
        // With no open entry, an operation waiting for its retry is still the operator's to stop: a discard or a
        // resolve of the operation cancels the retry.
        waitsForRetry.set(!entryOpen && operation.status() == OperationStatus.RETRY_SCHEDULED);
        decidable.set(entryOpen || waitsForRetry.get());
        redrivable.set(entryOpen);
        title.set(operation.operationId());
        shownId.set(operation.operationId());
        operationId.set(operation.operationId());
        claimedOperation.set("");
        tool.set(operation.tool());
        status.set(operation.status().name() + " · attempt " + operation.attempt());
        corrects.set(Objects.toString(loadedDetails.lineage().corrects(), ""));
        correctedBy.set(Objects.toString(loadedDetails.lineage().correctedBy(),
                Objects.toString(shown == null ? null : shown.supersededBy(), "")));
        runId.set(operation.runId() + (loadedDetails.run() == null ? "" : "  (" + loadedDetails.run().status() + ")"));
        nodeId.set(operation.nodeId());
        logicalAttempt.set(String.valueOf(operation.logicalAttempt()));
        idempotencyKey.set(operation.idempotencyKey());
        traceId.set(Objects.toString(operation.traceId(), ""));
        traceparent.set(Objects.toString(operation.traceparent(), ""));
        correlationId.set(Objects.toString(operation.correlationId(), ""));
        // A dispatch that carried only a traceparent is found in the tracer by the W3C trace id in it.
        tracerUrl.set(tracer.operation(loadedDetails.attempts(), operation.traceId() != null ? operation.traceId()
                : operation.traceparent() == null ? null : Traceparent.traceId(operation.traceparent())));
        runtimeVersion.set(Objects.toString(shown != null && shown.runtimeVersion() != null ? shown.runtimeVersion()
                : operation.runtimeVersion(), ""));
        String atFailure = shown != null && shown.toolSchemaVersion() != null ? shown.toolSchemaVersion()
                : operation.toolSchemaVersion();
        String now = loadedDetails.currentToolSchemaVersion();
        dispatchedSchema.set(VersionText.of(operation.tool(), atFailure));
        currentSchema.set(now == null ? "not registered by any worker" : VersionText.of(operation.tool(), now));
        schemaChanged.set(now != null && !now.equals(atFailure));
        schemaNote.set(schemaChanged.get()
                ? "changed since failure: " + VersionText.of(atFailure) + " → " + VersionText.of(now) : "");
        sideEffect.set(sideEffectNow(operation, shown));
        if (shown != null) {
            entryFacts(shown);
        } else {
            stream.set("");
            entryId.set("");
            deliveryCount.set("");
            consumer.set("");
            received.set("");
            lastError.set("");
            decision.set("not in the DLQ");
        }
        payload.set(pretty(operation.payload()));
        rawMessage.set("");
        attempts.setAll(loadedDetails.attempts());
        audit.setAll(loadedDetails.audit());
        timeline.set(timelineOf(loadedDetails, shown));
        message.set("");
        loaded.set(true);
    }

    /**
     * A message dead-lettered as itself: what it claimed (the operation it names, if any, is not its own), where and
     * when it was received, its error, raw message and decision. Nothing ran, so there is no side effect, timeline or
     * payload of an operation; it can be discarded or resolved, never redriven.
     */
    private void applyEntryAlone(EntryDetails found) {
        DlqEntryRecord shown = found.entry();
        details.set(null);
        entry.set(shown);
        entryAlone.set(true);
        decidable.set(shown.isOpen());
        redrivable.set(false);
        waitsForRetry.set(false);
        title.set("DLQ entry " + shown.id());
        shownId.set(String.valueOf(shown.id()));
        operationId.set("");
        claimedOperation.set(shown.operationId() == null ? "none" : shown.operationId() + " (not this entry's operation)");
        tool.set(Objects.toString(shown.tool(), "none"));
        status.set("NO OPERATION");
        corrects.set("");
        correctedBy.set("");
        runId.set(Objects.toString(shown.runId(), "none"));
        nodeId.set(Objects.toString(shown.nodeId(), "none"));
        logicalAttempt.set("");
        idempotencyKey.set("");
        traceId.set(Objects.toString(shown.traceId(), ""));
        traceparent.set("");
        correlationId.set(Objects.toString(shown.correlationId(), ""));
        tracerUrl.set(tracer.trace(shown.traceId()));
        runtimeVersion.set(Objects.toString(shown.runtimeVersion(), ""));
        dispatchedSchema.set("");
        currentSchema.set("");
        schemaChanged.set(false);
        schemaNote.set("");
        sideEffect.set(null);
        entryFacts(shown);
        payload.set("");
        rawMessage.set(shown.evidencePurged() ? "The raw message was " + shown.purgedNote() + "."
                : pretty(shown.rawMessage()));
        attempts.clear();
        audit.setAll(found.audit());
        timeline.set(TimelineData.EMPTY);
        message.set("");
        loaded.set(true);
    }

    /** What the entry itself records, the same whether or not it has an operation. */
    private void entryFacts(DlqEntryRecord shown) {
        stream.set(Objects.toString(shown.stream(), ""));
        entryId.set(Objects.toString(shown.entryId(), ""));
        deliveryCount.set(Objects.toString(shown.deliveryCount(), ""));
        consumer.set(Objects.toString(shown.consumer(), ""));
        received.set(shown.enteredAt() == null ? "" : TIME.format(shown.enteredAt()));
        lastError.set(shown.errorClass() + (shown.errorCode() == null ? "" : " " + shown.errorCode()) + ": "
                + shown.errorMessage());
        decision.set(shown.isOpen() ? "OPEN · waiting for a decision"
                : shown.decisionState() + " by " + shown.decidedBy() + " at " + TIME.format(shown.decidedAt())
                + (shown.decisionReason() == null ? "" : " · " + shown.decisionReason()));
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

    /** Where "open span" of one attempt goes: its span (or its trace) in the tracer; empty when it has none. */
    public String tracerUrl(AttemptRecord attempt) {
        return tracer.attempt(attempt);
    }

    public ReadOnlyObjectProperty<OperationDetails> detailsProperty() { return details.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<DlqEntryRecord> entryProperty() { return entry.getReadOnlyProperty(); }
    public ReadOnlyBooleanProperty loadedProperty() { return loaded.getReadOnlyProperty(); }
    /** The shown entry still waits for a decision, or the operation for its retry: resolve and discard apply. */
    public ReadOnlyBooleanProperty decidableProperty() { return decidable.getReadOnlyProperty(); }
    /** The shown entry has no operation of its own (see {@link #NO_OPERATION}). */
    public ReadOnlyBooleanProperty entryAloneProperty() { return entryAlone.getReadOnlyProperty(); }
    /** The shown entry is open and has an operation: the reconciliation wizard and a redrive apply. */
    public ReadOnlyBooleanProperty redrivableProperty() { return redrivable.getReadOnlyProperty(); }
    /** The operation waits for its retry and has no open entry: resolve and discard cancel the retry. */
    public ReadOnlyBooleanProperty waitsForRetryProperty() { return waitsForRetry.getReadOnlyProperty(); }
    public ReadOnlyBooleanProperty loadingProperty() { return loading.getReadOnlyProperty(); }
    public ReadOnlyStringProperty messageProperty() { return message.getReadOnlyProperty(); }
    /** The operation id, or "DLQ entry N" for an entry without an operation. */
    public ReadOnlyStringProperty titleProperty() { return title.getReadOnlyProperty(); }
    /** What "Copy id" copies: the operation id, or the entry id for an entry without an operation. */
    public ReadOnlyStringProperty shownIdProperty() { return shownId.getReadOnlyProperty(); }
    /** The shown operation's id; empty for an entry without an operation. */
    public ReadOnlyStringProperty operationIdProperty() { return operationId.getReadOnlyProperty(); }
    /** For an entry without an operation: the operation id its message named, or "none". */
    public ReadOnlyStringProperty claimedOperationProperty() { return claimedOperation.getReadOnlyProperty(); }
    public ReadOnlyStringProperty toolProperty() { return tool.getReadOnlyProperty(); }
    /** When the entry was dead-lettered. */
    public ReadOnlyStringProperty receivedProperty() { return received.getReadOnlyProperty(); }
    /** The message as it was received, masked; empty for an operation (its payload is shown instead). */
    public ReadOnlyStringProperty rawMessageProperty() { return rawMessage.getReadOnlyProperty(); }
    public ReadOnlyStringProperty statusProperty() { return status.getReadOnlyProperty(); }
    public ReadOnlyStringProperty decisionProperty() { return decision.getReadOnlyProperty(); }
    /** The operation this one corrects (a correction is the node's next logical attempt); empty when none. */
    public ReadOnlyStringProperty correctsProperty() { return corrects.getReadOnlyProperty(); }
    /** The correction that replaced (superseded) this operation, which never runs again; empty when none. */
    public ReadOnlyStringProperty correctedByProperty() { return correctedBy.getReadOnlyProperty(); }
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
    /** The W3C trace context the dispatch carried (its second field is the trace id); empty when none was sent. */
    public ReadOnlyStringProperty traceparentProperty() { return traceparent.getReadOnlyProperty(); }
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
