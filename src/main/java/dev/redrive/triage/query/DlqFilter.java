package dev.redrive.triage.query;

import dev.redrive.model.DecisionState;
import dev.redrive.model.FailureClass;
import dev.redrive.model.SideEffectState;

import java.time.Instant;

/**
 * What a DLQ query narrows to. Every field is optional (null = no restriction); set fields are combined with AND.
 *
 * @param errorClass            the normalized failure class
 * @param tool                  the tool name, exact
 * @param runId                 the run id, exact
 * @param traceOrCorrelationId  matches the trace id or the correlation id exactly, or the W3C trace id of the
 *                              dispatch's traceparent (given as 32 hex digits or as a whole traceparent)
 * @param enteredFrom           entered the DLQ at or after this instant
 * @param enteredTo             entered the DLQ before this instant
 * @param sideEffect            the side-effect state recorded with the entry
 * @param decisionState         OPEN, REDRIVEN, RESOLVED or DISCARDED
 * @param text                  free text searched in the normalized error message (web-search syntax: words,
 *                              "quoted phrases", -excluded)
 * @param fingerprint           the error fingerprint, exact
 */
public record DlqFilter(
        FailureClass errorClass,
        String tool,
        String runId,
        String traceOrCorrelationId,
        Instant enteredFrom,
        Instant enteredTo,
        SideEffectState sideEffect,
        DecisionState decisionState,
        String text,
        String fingerprint) {

    private static final DlqFilter NONE = builder().build();

    public DlqFilter {
        tool = blankToNull(tool);
        runId = blankToNull(runId);
        traceOrCorrelationId = blankToNull(traceOrCorrelationId);
        text = blankToNull(text);
        fingerprint = blankToNull(fingerprint);
        if (enteredFrom != null && enteredTo != null && !enteredFrom.isBefore(enteredTo)) {
            throw new IllegalArgumentException("the time range is empty: from " + enteredFrom + " is not before to " + enteredTo);
        }
    }

    /** No restriction: every entry. */
    public static DlqFilter none() {
        return NONE;
    }

    /** A filter named field by field: {@code DlqFilter.builder().tool("demo.charge").decisionState(OPEN).build()}. */
    public static Builder builder() {
        return new Builder();
    }

    /** This filter's restrictions, to narrow or widen some of them. */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.errorClass = errorClass;
        builder.tool = tool;
        builder.runId = runId;
        builder.traceOrCorrelationId = traceOrCorrelationId;
        builder.enteredFrom = enteredFrom;
        builder.enteredTo = enteredTo;
        builder.sideEffect = sideEffect;
        builder.decisionState = decisionState;
        builder.text = text;
        builder.fingerprint = fingerprint;
        return builder;
    }

    /** Sets the restrictions by name; a field not set (or set to null) does not restrict. */
    public static final class Builder {
        private FailureClass errorClass;
        private String tool;
        private String runId;
        private String traceOrCorrelationId;
        private Instant enteredFrom;
        private Instant enteredTo;
        private SideEffectState sideEffect;
        private DecisionState decisionState;
        private String text;
        private String fingerprint;

        private Builder() {
        }

        public Builder errorClass(FailureClass value) { errorClass = value; return this; }
        public Builder tool(String value) { tool = value; return this; }
        public Builder runId(String value) { runId = value; return this; }
        public Builder traceOrCorrelationId(String value) { traceOrCorrelationId = value; return this; }
        public Builder enteredFrom(Instant value) { enteredFrom = value; return this; }
        public Builder enteredTo(Instant value) { enteredTo = value; return this; }
        public Builder enteredBetween(Instant from, Instant to) { return enteredFrom(from).enteredTo(to); }
        public Builder sideEffect(SideEffectState value) { sideEffect = value; return this; }
        public Builder decisionState(DecisionState value) { decisionState = value; return this; }
        public Builder text(String value) { text = value; return this; }
        public Builder fingerprint(String value) { fingerprint = value; return this; }

        /** @throws IllegalArgumentException when the time range is empty */
        public DlqFilter build() {
            return new DlqFilter(errorClass, tool, runId, traceOrCorrelationId, enteredFrom, enteredTo, sideEffect,
                    decisionState, text, fingerprint);
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
