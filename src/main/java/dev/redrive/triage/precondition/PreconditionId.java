package dev.redrive.triage.precondition;

import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/** The redrive preconditions of DESIGN.md, in the order they are checked and shown. */
public enum PreconditionId {
    /** 1. The run is neither cancelled nor terminal. */
    RUN_ACTIVE("run still active"),
    /** 2. The tool's schema version is the one dispatched, or an explicitly chosen compatible current one. */
    TOOL_SCHEMA("tool schema unchanged"),
    /** 3. The approval the operation needs is neither revoked nor expired. */
    APPROVAL("approval still valid"),
    /** 4. The side effect is settled: NONE or NOT_APPLIED (APPLIED resolves instead). */
    SIDE_EFFECT("side effect settled"),
    /** 5. The DLQ entry is still open at the version the operator saw. */
    ENTRY_OPEN("entry still open");

    private final String title;

    PreconditionId(String title) {
        this.title = title;
    }

    /** A short human title for lists and reports. */
    public String title() {
        return title;
    }

    /** The id as JSON and the command line show it: {@code run_active}. */
    @JsonValue
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}
