package dev.redrive.triage.precondition;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

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

    static PreconditionResult pass(PreconditionId id, String explanation, Map<String, Object> facts) {
        return new PreconditionResult(id, true, explanation, facts);
    }

    static PreconditionResult fail(PreconditionId id, String explanation, Map<String, Object> facts) {
        return new PreconditionResult(id, false, explanation, facts);
    }

    /** {@code [PASS] tool schema unchanged: ...} for a terminal. */
    public String line() {
        return (passed ? "[PASS] " : "[FAIL] ") + id.key() + ": " + explanation;
    }
}
