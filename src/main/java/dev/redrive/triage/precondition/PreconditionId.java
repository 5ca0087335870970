package dev.redrive.triage.precondition;

import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/**
 * The redrive preconditions of DESIGN.md, in the order they are checked and shown. Each title states the condition
 * that must hold ("run is active"), so a failed check never reads as the state it found.
 */
public enum PreconditionId {
    /**
     * 0. The DLQ entry was entered for an operation's attempt. Only the report of an entry without one has this check
     * (failed, beside its entry check): an operation's report has the five below, which all belong to the operation.
     */
    OWN_OPERATION("entry has an operation of its own", "no operation of its own"),
    /** 1. The run is neither cancelled nor terminal. */
    RUN_ACTIVE("run is active", "run not active"),
    /** 2. The tool's schema version is the one dispatched, or an explicitly chosen compatible current one. */
    TOOL_SCHEMA("tool schema is unchanged", "tool schema changed"),
    /** 3. The approval the operation needs is neither revoked nor expired. */
    APPROVAL("approval is valid", "approval not valid"),
    /** 4. The side effect is settled: NONE or NOT_APPLIED (APPLIED resolves instead). */
    SIDE_EFFECT("side effect is settled", "side effect not settled"),
    /** 5. The DLQ entry is still open at the version the operator saw. */
    ENTRY_OPEN("entry is open", "entry not open"),
    /**
     * 6. A correction's payload is one JSON object the wire contract accepts (within the size limit, storable). Only a
     * correction's report has this check, after the five of a redrive.
     */
    CORRECTED_PAYLOAD("corrected payload is a JSON object within the size limit", "corrected payload refused");

    private final String title;
    private final String failedTitle;

    PreconditionId(String title, String failedTitle) {
        this.title = title;
        this.failedTitle = failedTitle;
    }

    /** The condition, in words, for lists and reports. */
    public String title() {
        return title;
    }

    /**
     * The condition not met, for "blocked by: ..." where only the check is known, not its facts: "tool schema
     * changed", never the title that reads as if it held.
     */
    public String failedTitle() {
        return failedTitle;
    }

    /** The id as JSON and the command line show it: {@code run_active}. */
    @JsonValue
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}
