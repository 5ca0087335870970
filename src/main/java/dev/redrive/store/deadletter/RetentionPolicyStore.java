package dev.redrive.store.deadletter;

import dev.redrive.store.Jdbc;
import dev.redrive.store.audit.AuditAction;
import dev.redrive.store.audit.AuditLine;
import dev.redrive.store.audit.AuditLine.AuditSubject;
import dev.redrive.store.audit.AuditLog;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The namespace's one retention policy row. Changes are audited in the transaction that makes them; the database
 * lets only the schema owner make them and stamps its login.
 */
public final class RetentionPolicyStore {
    private static final String READ = """
            SELECT keep_evidence_seconds, changed_by, changed_login, changed_at FROM retention_policy""";
    private static final String WRITE = """
            UPDATE retention_policy SET keep_evidence_seconds = ?, changed_by = ?, changed_at = ?""";

    private final Jdbc jdbc;
    private final AuditLog audit;

    public RetentionPolicyStore(Jdbc jdbc) {
        this.jdbc = jdbc;
        this.audit = new AuditLog(jdbc);
    }

    public RetentionPolicy read() {
        return jdbc.queryOne(READ, row -> {
            Long seconds = Jdbc.nullableLong(row, "keep_evidence_seconds");
            return new RetentionPolicy(seconds == null ? null : Duration.ofSeconds(seconds), row.getString("changed_by"),
                    row.getString("changed_login"), Jdbc.instant(row, "changed_at"));
        }).orElseThrow();
    }

    /** Replaces the policy and audits the change, naming what it was and what it is. */
    public RetentionPolicy write(RetentionPolicy policy, String operator, Instant at) {
        if (operator == null || operator.isBlank()) {
            throw new IllegalArgumentException("a policy change needs the operator's name");
        }
        return jdbc.inTransaction(() -> {
            RetentionPolicy before = read();
            jdbc.update(WRITE, policy.keep().map(Duration::toSeconds).orElse(null), operator, at);
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("policy", "retention");
            details.put("before", before.describe());
            details.put("after", policy.describe());
            audit.append(new AuditLine(at, operator, AuditAction.POLICY_CHANGED, AuditSubject.NONE, null, details));
            return read();
        });
    }
}
