package dev.redrive.bench.generate;

import dev.redrive.identity.OperationId;
import dev.redrive.model.FailureClass;
import dev.redrive.store.deadletter.ErrorFingerprint;
import dev.redrive.store.Jdbc;
import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DlqGeneratorTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final Instant NOW = Instant.parse("2026-11-30T00:00:00Z");

    @Test
    void generatedEntries_carryConsistentOperationsAttemptsAndEvidence() {
        DlqGenerator generator = new DlqGenerator(ns.database(), Clock.fixed(NOW, ZoneOffset.UTC));

        GeneratedDlq generated = generator.generate(1500, "gt");

        Jdbc jdbc = ns.database().jdbc();
        assertThat(generated.runs()).isEqualTo(8);
        assertThat(jdbc.queryLong("SELECT count(*) FROM dlq_entries WHERE run_id LIKE 'gt-run-%'")).isEqualTo(1500);
        assertThat(jdbc.queryLong("SELECT count(*) FROM operations WHERE run_id LIKE 'gt-run-%'")).isEqualTo(1500);
        assertThat(jdbc.queryLong("SELECT count(*) FROM runs WHERE run_id LIKE 'gt-run-%'")).isEqualTo(8);
        assertThat(jdbc.queryLong("SELECT count(*) FROM attempts WHERE operation_id LIKE 'gt-run-%'")).isEqualTo(generated.attempts());
        assertThat(jdbc.queryLong("""
                SELECT count(*) FROM dlq_entries e JOIN operations o USING (operation_id)
                WHERE e.attempt <> o.attempt
                   OR jsonb_array_length(e.attempt_history) <> o.attempt
                   OR (SELECT count(*) FROM attempts a WHERE a.operation_id = o.operation_id) <> o.attempt
                   OR e.idempotency_key <> o.idempotency_key""")).isZero();
        assertThat(jdbc.queryLong("""
                SELECT count(*) FROM dlq_entries e
                WHERE e.attempt_history <> (SELECT jsonb_agg(jsonb_build_object('attempt', a.attempt, 'outcome', a.outcome,
                                                                                'error_class', a.error_class,
                                                                                'error_code', a.error_code,
                                                                                'finished_at', a.finished_at) ORDER BY a.attempt)
                                            FROM attempts a WHERE a.operation_id = e.operation_id)
                   OR e.raw_message ->> 'operation_id' <> e.operation_id
                   OR e.raw_message ->> 'idempotency_key' <> e.idempotency_key
                   OR (e.raw_message ->> 'payload')::jsonb <> e.payload""")).as("history and raw message match the rows").isZero();
        String operationId = jdbc.queryOne("SELECT operation_id FROM operations LIMIT 1", row -> row.getString(1)).orElseThrow();
        assertThat(jdbc.queryOne("SELECT idempotency_key FROM operations WHERE operation_id = ?", row -> row.getString(1), operationId))
                .contains(OperationId.parse(operationId).idempotencyKey());
        assertThat(jdbc.queryOne("SELECT tool, error_class, error_code, error_message, error_fingerprint FROM dlq_entries LIMIT 1",
                row -> ErrorFingerprint.of(row.getString(1), FailureClass.valueOf(row.getString(2)), row.getString(3),
                        row.getString(4)).equals(row.getString(5)))).contains(true);
        assertThat(jdbc.queryLong("SELECT count(DISTINCT error_fingerprint) FROM dlq_entries"))
                .isEqualTo(jdbc.queryLong("SELECT count(DISTINCT (tool, error_class, error_code)) FROM dlq_entries"));
        assertThat(jdbc.queryLong("SELECT count(*) FROM dlq_entries WHERE entered_at > ? OR entered_at < ?",
                NOW, NOW.minusSeconds(31L * 24 * 3600))).isZero();
        assertThat(jdbc.queryLong("SELECT count(*) FROM dlq_entries WHERE error_class = 'UNKNOWN_SIDE_EFFECT' AND side_effect <> 'POSSIBLE'")).isZero();
        assertThat(jdbc.queryLong("SELECT count(*) FROM dlq_entries WHERE decision_state <> 'OPEN' AND run_id LIKE 'gt-run-%'"))
                .isPositive()
                .isEqualTo(jdbc.queryLong("SELECT count(*) FROM audit_log WHERE operation_id LIKE 'gt-run-%'"));
        assertThat(jdbc.queryLong("SELECT count(DISTINCT tool) FROM tool_schemas WHERE is_current")).isEqualTo(5);
    }

    @Test
    void aSecondBatch_addsToTheNamespaceUnderItsOwnRuns() {
        DlqGenerator generator = new DlqGenerator(ns.database(), Clock.fixed(NOW, ZoneOffset.UTC));
        generator.generate(10, "first");

        GeneratedDlq second = generator.generate(10);

        assertThat(ns.database().jdbc().queryLong("SELECT count(*) FROM dlq_entries WHERE run_id LIKE ?", second.tag() + "-run-%"))
                .isEqualTo(10);
    }

    @Test
    void badArguments_areRefusedWithWhatIsWrong() {
        DlqGenerator generator = new DlqGenerator(ns.database(), Clock.systemUTC());

        assertThatThrownBy(() -> generator.generate(0)).hasMessageContaining("1 or more");
        assertThatThrownBy(() -> generator.generate(5, "no spaces")).hasMessageContaining("tag");
    }
}
