package dev.redrive.store.reconciliation;

import dev.redrive.store.Jdbc.Json;
import dev.redrive.store.Jdbc;

import java.time.Instant;

/**
 * The one writer of {@code reconciliations}: the worker records what a tool's look-up found when it commits an attempt,
 * an operator records a finding through the triage engine. Runs inside the caller's transaction.
 */
public final class ReconciliationLog {
    private static final String INSERT = """
            INSERT INTO reconciliations (operation_id, outcome, source, evidence, result, recorded_by, recorded_at)
            VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id""";

    private final Jdbc jdbc;

    public ReconciliationLog(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** Records a finding about an operation; returns its id. */
    public long record(String operationId, ReconciliationFinding finding, Instant at) {
        return jdbc.queryLong(INSERT, operationId, finding.outcome(), finding.source(), finding.evidence(),
                Json.of(finding.result()), finding.recordedBy(), at);
    }
}
