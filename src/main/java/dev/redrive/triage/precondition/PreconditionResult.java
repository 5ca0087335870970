package dev.redrive.triage.precondition;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One precondition's verdict.
 *
 * @param explanation why it passed or failed, in words an operator can act on
 * @param facts       the values the check looked at, by name (strings, numbers, booleans or null)
 */
public record PreconditionResult(PreconditionId id, boolean passed, String explanation, Map<String, Object> facts) {

    public PreconditionResult {
        facts = Collections.unmodifiableMap(new LinkedHashMap<>(facts));
    }

    public static PreconditionResult pass(PreconditionId id, String explanation, Map<String, Object> facts) {
        return new PreconditionResult(id, true, explanation, facts);
    }

    public static PreconditionResult fail(PreconditionId id, String explanation, Map<String, Object> facts) {
        return new PreconditionResult(id, false, explanation, facts);
    }

    /**
     * What a failed check found, in a few words ("run cancelled", "schema changed 1 → 2", "decided by bob"): the
     * state that blocks, as a list of many items counts it; null for a check that passed. Read from the facts the
     * engine recorded, so it says what the explanation says.
     */
    public String found() {
        if (passed) {
            return null;
        }
        return switch (id) {
            case OWN_OPERATION -> "no operation of its own";
            case RUN_ACTIVE -> facts.get("run_status") == null ? "run unknown" : "run " + lower(facts.get("run_status"));
            case TOOL_SCHEMA -> facts.get("current_version") == null ? "no current schema registered"
                    : facts.get("chosen_version") != null ? "chosen version " + facts.get("chosen_version") + " not current"
                    : "schema changed " + facts.get("dispatched_version") + " → " + facts.get("current_version");
            case APPROVAL -> facts.get("revoked_at") != null ? "approval revoked"
                    : facts.get("granted_by") == null ? "approval missing" : "approval expired";
            case SIDE_EFFECT -> "side effect " + facts.get("side_effect");
            case ENTRY_OPEN -> entryFound();
            case CORRECTED_PAYLOAD -> "corrected payload refused";
        };
    }

    private String entryFound() {
        Object state = facts.get("decision_state");
        if (state == null) {
            return "no DLQ entry";
        }
        if (!"OPEN".equals(state)) {
            return lower(state) + " by " + Objects.toString(facts.get("decided_by"), "someone");
        }
        if (facts.get("seen_version") != null && !facts.get("seen_version").equals(facts.get("version"))) {
            return "entry changed since you looked";
        }
        return "operation " + facts.get("operation_status");
    }

    private static String lower(Object value) {
        return value.toString().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    /** {@code [PASS] run_active: ...} for a terminal. */
    public String line() {
        return (passed ? "[PASS] " : "[FAIL] ") + id.key() + ": " + explanation;
    }
}
