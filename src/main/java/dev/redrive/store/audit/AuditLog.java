package dev.redrive.store.audit;

import dev.redrive.store.Jdbc;
import dev.redrive.store.Jdbc.Json;
import dev.redrive.store.JsonConventions;

import java.util.List;

/**
 * The one writer of {@code audit_log}, an append-only table (a trigger refuses updates and deletes). Each line is
 * written inside the caller's transaction, so it commits or rolls back with the change it records.
 */
public final class AuditLog {
    private static final String APPEND = """
            INSERT INTO audit_log (at, actor, action, operation_id, dlq_entry_id, command_id, reason, details)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)""";

    private final Jdbc jdbc;

    public AuditLog(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    public void append(AuditLine line) {
        jdbc.update(APPEND, parameters(line));
    }

    /** Appends several lines in one batch. */
    public void appendAll(List<AuditLine> lines) {
        jdbc.batch(APPEND, lines.stream().map(AuditLog::parameters).toList());
    }

    private static Object[] parameters(AuditLine line) {
        AuditLine.AuditSubject subject = line.subject();
        return new Object[]{line.at(), line.actor(), line.action().stored(), subject.operationId(),
                subject.dlqEntryId(), subject.commandId(), line.reason(),
                new Json(JsonConventions.compact(line.details()))};
    }
}
