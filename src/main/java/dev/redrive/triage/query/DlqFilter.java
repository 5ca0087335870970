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
 * @param traceOrCorrelationId  matches either the trace id or the correlation id, exact
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

    private static final DlqFilter NONE = new DlqFilter(null, null, null, null, null, null, null, null, null, null);

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

    public DlqFilter withErrorClass(FailureClass value) {
        return new DlqFilter(value, tool, runId, traceOrCorrelationId, enteredFrom, enteredTo, sideEffect, decisionState, text, fingerprint);
    }

    public DlqFilter withTool(String value) {
        return new DlqFilter(errorClass, value, runId, traceOrCorrelationId, enteredFrom, enteredTo, sideEffect, decisionState, text, fingerprint);
    }

    public DlqFilter withRunId(String value) {
        return new DlqFilter(errorClass, tool, value, traceOrCorrelationId, enteredFrom, enteredTo, sideEffect, decisionState, text, fingerprint);
    }

    public DlqFilter withTraceOrCorrelationId(String value) {
        return new DlqFilter(errorClass, tool, runId, value, enteredFrom, enteredTo, sideEffect, decisionState, text, fingerprint);
    }

    public DlqFilter withEnteredBetween(Instant from, Instant to) {
        return new DlqFilter(errorClass, tool, runId, traceOrCorrelationId, from, to, sideEffect, decisionState, text, fingerprint);
    }

    public DlqFilter withSideEffect(SideEffectState value) {
        return new DlqFilter(errorClass, tool, runId, traceOrCorrelationId, enteredFrom, enteredTo, value, decisionState, text, fingerprint);
    }

    public DlqFilter withDecisionState(DecisionState value) {
        return new DlqFilter(errorClass, tool, runId, traceOrCorrelationId, enteredFrom, enteredTo, sideEffect, value, text, fingerprint);
    }

    public DlqFilter withText(String value) {
        return new DlqFilter(errorClass, tool, runId, traceOrCorrelationId, enteredFrom, enteredTo, sideEffect, decisionState, value, fingerprint);
    }

    public DlqFilter withFingerprint(String value) {
        return new DlqFilter(errorClass, tool, runId, traceOrCorrelationId, enteredFrom, enteredTo, sideEffect, decisionState, text, value);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
