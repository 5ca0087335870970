package dev.redrive.triage.request;

import dev.redrive.store.Database;
import dev.redrive.store.Jdbc;
import dev.redrive.store.audit.AuditAction;
import dev.redrive.store.audit.AuditLine;
import dev.redrive.store.audit.AuditLine.AuditSubject;
import dev.redrive.store.audit.AuditLog;

import java.sql.Array;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The namespace's one four-eyes policy row. Changes are audited in the transaction that makes them; the database lets
 * only the schema owner make them and stamps its login.
 */
public final class PolicyStore {
    private static final String READ = """
            SELECT enabled, batch_over, corrections, tools, expire_after_seconds, changed_by, changed_login, changed_at
              FROM four_eyes_policy""";

    private static final String WRITE = """
            UPDATE four_eyes_policy
               SET enabled = ?, batch_over = ?, corrections = ?, tools = ?, expire_after_seconds = ?, changed_by = ?,
                   changed_at = ?""";

    /** The tools a worker (or tool schema set) registered, and those with DLQ entries: what --tools may name. */
    private static final String KNOWN_TOOLS = """
            SELECT tool FROM tool_schemas
            UNION
            SELECT tool FROM dlq_summary WHERE tool <> ''
            ORDER BY 1""";
    /** How many known tools a refusal names before it says how many more there are. */
    private static final int NAMED = 20;

    private final Jdbc jdbc;
    private final AuditLog audit;

    public PolicyStore(Database database) {
        this.jdbc = database.jdbc();
        this.audit = new AuditLog(jdbc);
    }

    public FourEyesPolicy read() {
        return jdbc.queryOne(READ, row -> {
            Array tools = row.getArray("tools");
            return new FourEyesPolicy(row.getBoolean("enabled"), Jdbc.nullableInt(row, "batch_over"),
                    row.getBoolean("corrections"), Arrays.asList((String[]) tools.getArray()),
                    Duration.ofSeconds(row.getLong("expire_after_seconds")), row.getString("changed_by"),
                    row.getString("changed_login"), Jdbc.instant(row, "changed_at"));
        }).orElseThrow();
    }

    /**
     * Replaces the policy and audits the change, naming what it was and what it is. A tool the namespace does not know
     * is refused: a misspelt name would cover nothing and look as if it did.
     */
    public FourEyesPolicy write(FourEyesPolicy policy, String operator, Instant at) {
        if (operator == null || operator.isBlank()) {
            throw new IllegalArgumentException("a policy change needs the operator's name");
        }
        return jdbc.inTransaction(() -> {
            requireKnown(policy.tools());
            FourEyesPolicy before = read();
            jdbc.update(WRITE, policy.enabled(), policy.batchOver(), policy.corrections(),
                    policy.tools().toArray(String[]::new), policy.expireAfter().toSeconds(), operator, at);
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("before", before.describe());
            details.put("after", policy.describe());
            audit.append(new AuditLine(at, operator, AuditAction.POLICY_CHANGED, AuditSubject.NONE, null, details));
            return read();
        });
    }

    private void requireKnown(List<String> tools) {
        List<String> known = jdbc.query(KNOWN_TOOLS, row -> row.getString(1));
        List<String> unknown = tools.stream().filter(tool -> !known.contains(tool)).toList();
        if (unknown.isEmpty()) {
            return;
        }
        String named = known.isEmpty() ? "none yet" : String.join(", ", known.subList(0, Math.min(NAMED, known.size())))
                + (known.size() > NAMED ? " and " + (known.size() - NAMED) + " more" : "");
        throw new IllegalArgumentException("--tools names an unknown tool: " + String.join(", ", unknown)
                + "; expected a tool a worker or tool schema set registered, or one with DLQ entries; known: " + named);
    }
}
