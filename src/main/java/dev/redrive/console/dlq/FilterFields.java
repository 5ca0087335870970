package dev.redrive.console.dlq;

import dev.redrive.model.DecisionState;
import dev.redrive.model.FailureClass;
import dev.redrive.model.SideEffectState;
import dev.redrive.triage.query.DlqFilter;
import dev.redrive.triage.query.FingerprintGroup;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

import java.time.Clock;

/** The fields of the DLQ browser's filter bar, as the operator types them, and the filter they make. */
final class FilterFields {
    private final ObjectProperty<FailureClass> errorClass = new SimpleObjectProperty<>();
    private final StringProperty tool = new SimpleStringProperty("");
    private final StringProperty runId = new SimpleStringProperty("");
    private final StringProperty traceId = new SimpleStringProperty("");
    private final ObjectProperty<TimeRange> timeRange = new SimpleObjectProperty<>(TimeRange.ANY);
    private final ObjectProperty<SideEffectState> sideEffect = new SimpleObjectProperty<>();
    private final ObjectProperty<DecisionState> decisionState = new SimpleObjectProperty<>();
    private final StringProperty text = new SimpleStringProperty("");

    /**
     * The filter the fields make, narrowed to {@code group} when one is open; a time range counts back from the
     * clock's now.
     *
     * @throws IllegalArgumentException naming the field the filter cannot take
     */
    DlqFilter build(FingerprintGroup group, Clock clock) {
        return DlqFilter.builder().errorClass(errorClass.get()).tool(tool.get()).runId(runId.get())
                .traceOrCorrelationId(traceId.get())
                .enteredFrom(timeRange.get() == null ? null : timeRange.get().from(clock.instant()))
                .sideEffect(sideEffect.get()).decisionState(decisionState.get()).text(text.get())
                .fingerprint(group == null ? null : group.fingerprint()).build();
    }

    void clear() {
        errorClass.set(null);
        tool.set("");
        runId.set("");
        traceId.set("");
        timeRange.set(TimeRange.ANY);
        sideEffect.set(null);
        decisionState.set(null);
        text.set("");
    }

    ObjectProperty<FailureClass> errorClassProperty() { return errorClass; }
    StringProperty toolProperty() { return tool; }
    StringProperty runIdProperty() { return runId; }
    StringProperty traceIdProperty() { return traceId; }
    ObjectProperty<TimeRange> timeRangeProperty() { return timeRange; }
    ObjectProperty<SideEffectState> sideEffectProperty() { return sideEffect; }
    ObjectProperty<DecisionState> decisionStateProperty() { return decisionState; }
    StringProperty textProperty() { return text; }
}
