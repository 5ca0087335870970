package dev.redrive.store.deadletter;

import dev.redrive.store.Jdbc;
import dev.redrive.store.StoreException;
import dev.redrive.testing.DatabaseLogin;
import dev.redrive.testing.TestNamespace;
import dev.redrive.testing.TestDecisions;
import dev.redrive.triage.DeadLetterFixture;
import dev.redrive.triage.DeadLetterFixture.Created;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.detail.DlqEntryRecord;
import dev.redrive.triage.detail.EntryDetailsLoader;
import dev.redrive.triage.precondition.DecisionTarget;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Retention against a real PostgreSQL: decided entries older than the limit lose their evidence, keep their identity,
 * error and decision; open and recent entries keep everything; the audit log only grows.
 */
class EvidencePurgeTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final String CARD = "4242424242424242";
    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

    private Jdbc jdbc;
    private DeadLetterFixture fixture;
    private Decisions decisions;
    private EvidencePurge purge;

    @BeforeEach
    void setUp() {
        jdbc = ns.database().jdbc();
        jdbc.update("TRUNCATE dlq_entries, evidence_purges, redrive_commands, reconciliations, attempts, operations, runs CASCADE");
        fixture = DeadLetterFixture.withChargeTool(ns.database());
        decisions = TestDecisions.of(ns);
        purge = new EvidencePurge(jdbc);
    }

    private Created entry(String run) {
        return fixture.deadLettered(run, "charge").payload("{\"amount\": 10, \"card_number\": \"" + CARD + "\"}")
                .create();
    }

    private Created discardedAt(String run, Instant decidedAt) {
        Created created = entry(run);
        decisions.discard(DecisionTarget.operation(created.operationId()), "alice", "duplicate order");
        jdbc.update("UPDATE dlq_entries SET decided_at = ? WHERE id = ?", decidedAt, created.dlqEntryId());
        return created;
    }

    private Map<String, Object> row(long entryId) {
        return jdbc.queryOne("""
                SELECT raw_message, payload, attempt_history::text AS history, delivery_history::text AS deliveries,
                       evidence_purge_id, decision_state, decided_by, error_message, operation_id, idempotency_key
                  FROM dlq_entries WHERE id = ?""", rs -> {
            java.util.LinkedHashMap<String, Object> values = new java.util.LinkedHashMap<>();
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                values.put(rs.getMetaData().getColumnLabel(i), rs.getObject(i) == null ? null : rs.getObject(i).toString());
            }
            return values;
        }, entryId).orElseThrow();
    }

    private long auditLines() {
        return jdbc.queryLong("SELECT count(*) FROM audit_log");
    }

    @Test
    void decidedEntriesOlderThanTheLimit_loseTheirEvidence_andKeepIdentityErrorAndDecision() {
        Created old = discardedAt("old", NOW.minus(Duration.ofDays(100)));
        Created recent = discardedAt("recent", NOW.minus(Duration.ofDays(5)));
        Created open = entry("open");
        jdbc.update("UPDATE dlq_entries SET entered_at = ? WHERE id = ?", NOW.minus(Duration.ofDays(400)), open.dlqEntryId());
        long auditBefore = auditLines();

        PurgeSummary done = purge.purge(NOW.minus(Duration.ofDays(90)), "carol", NOW, EvidencePurge.CHUNK, Long.MAX_VALUE);

        assertThat(done.entries()).isEqualTo(1);
        assertThat(done.bytes()).isPositive();
        Map<String, Object> purged = row(old.dlqEntryId());
        assertThat(purged.get("raw_message")).isNull();
        assertThat(purged.get("payload")).isNull();
        assertThat(purged.get("history")).isEqualTo("[]");
        assertThat(purged.get("deliveries")).isEqualTo("[]");
        assertThat(purged.get("evidence_purge_id")).isEqualTo(String.valueOf(done.purgeId()));
        assertThat(purged).containsEntry("decision_state", "DISCARDED").containsEntry("decided_by", "alice")
                .containsEntry("operation_id", old.operationId()).containsEntry("idempotency_key", old.idempotencyKey());
        assertThat(purged.get("error_message")).isNotNull();
        for (Created kept : List.of(recent, open)) {
            assertThat(row(kept.dlqEntryId()).get("payload").toString()).contains(CARD);
            assertThat(row(kept.dlqEntryId()).get("raw_message")).isNotNull();
            assertThat(row(kept.dlqEntryId()).get("evidence_purge_id")).isNull();
        }
        // The purge is a row naming who and when, and one audit line; no earlier line was touched.
        assertThat(jdbc.queryOne("SELECT requested_by || ' ' || entries || ' ' || db_login FROM evidence_purges WHERE id = ?",
                rs -> rs.getString(1), done.purgeId())).contains("carol 1 " + ns.config().pgUser());
        assertThat(auditLines()).isEqualTo(auditBefore + 1);
        assertThat(jdbc.queryOne("""
                SELECT actor || ' ' || (details->>'entries') || ' ' || (details->'entry_ids'->>0) FROM audit_log
                 WHERE action = 'EVIDENCE_PURGED' AND (details->>'purge_id')::bigint = ?""", rs -> rs.getString(1),
                done.purgeId()))
                .contains("carol 1 " + old.dlqEntryId());
        assertThat(jdbc.query("SELECT DISTINCT action FROM audit_log WHERE operation_id = ?", rs -> rs.getString(1),
                old.operationId())).containsExactly("DISCARD");
    }

    @Test
    void aPurgedEntryStillReadsWhole_saysWhenItsEvidenceWentAndThePurgeIsNotRepeated() {
        Created old = discardedAt("old", NOW.minus(Duration.ofDays(100)));
        PurgeSummary first = purge.purge(NOW.minus(Duration.ofDays(90)), "carol", NOW, EvidencePurge.CHUNK, 10);

        DlqEntryRecord read = new EntryDetailsLoader(ns.database()).require(old.dlqEntryId()).entry();

        assertThat(read.rawMessage()).isNull();
        assertThat(read.payload()).isNull();
        assertThat(read.evidencePurgedAt()).isEqualTo(NOW);
        assertThat(read.decisionReason()).isEqualTo("duplicate order");
        PurgeSummary second = purge.purge(NOW.minus(Duration.ofDays(90)), "carol", NOW, EvidencePurge.CHUNK, 10);
        assertThat(second.entries()).isZero();
        assertThat(second.purgeId()).isNull();
        assertThat(jdbc.queryLong("SELECT count(*) FROM evidence_purges")).isEqualTo(1);
        assertThat(first.entries()).isEqualTo(1);
    }

    @Test
    void aPreviewCountsWhatAPurgeWouldTake_andWritesNothing() {
        discardedAt("a", NOW.minus(Duration.ofDays(100)));
        discardedAt("b", NOW.minus(Duration.ofDays(95)));
        entry("open");
        long auditBefore = auditLines();

        PurgePreview preview = purge.preview(NOW.minus(Duration.ofDays(90)));

        assertThat(preview.entries()).isEqualTo(2);
        assertThat(preview.bytes()).isPositive();
        assertThat(preview.oldestDecision()).isEqualTo(NOW.minus(Duration.ofDays(100)));
        assertThat(preview.newestDecision()).isEqualTo(NOW.minus(Duration.ofDays(95)));
        assertThat(jdbc.queryLong("SELECT count(*) FROM dlq_entries WHERE payload IS NULL")).isZero();
        assertThat(auditLines()).isEqualTo(auditBefore);
    }

    @Test
    void manyEntriesArePurgedAChunkPerTransaction_eachWithItsAuditLine() {
        for (int i = 0; i < 7; i++) {
            discardedAt("bulk-" + i, NOW.minus(Duration.ofDays(100 + i)));
        }
        PurgeSummary done = purge.purge(NOW.minus(Duration.ofDays(90)), "carol", NOW, 3, Long.MAX_VALUE);

        assertThat(done.entries()).isEqualTo(7);
        assertThat(jdbc.query("""
                SELECT (details->>'entries')::int FROM audit_log
                 WHERE action = 'EVIDENCE_PURGED' AND (details->>'purge_id')::bigint = ? ORDER BY id""",
                rs -> rs.getInt(1), done.purgeId())).containsExactly(3, 3, 1);
        assertThat(jdbc.queryLong("SELECT entries FROM evidence_purges WHERE id = ?", done.purgeId())).isEqualTo(7);
        assertThat(jdbc.queryLong("SELECT count(*) FROM dlq_entries WHERE evidence_purge_id = ?", done.purgeId()))
                .isEqualTo(7);
    }

    @Test
    void theDatabaseRefusesToEmptyAnOpenEntry_andAnOperatorLoginMayNotPurge() throws Exception {
        Created open = entry("open");
        assertThatThrownBy(() -> jdbc.update("UPDATE dlq_entries SET evidence_purged_at = now(), payload = NULL WHERE id = ?",
                open.dlqEntryId())).isInstanceOf(StoreException.class).hasMessageContaining("dlq_entries_open_keeps_evidence");

        Created old = discardedAt("old", NOW.minus(Duration.ofDays(100)));
        try (DatabaseLogin operator = DatabaseLogin.operator(ns, "purger")) {
            EvidencePurge asOperator = new EvidencePurge(operator.database().jdbc());
            assertThatThrownBy(() -> asOperator.purge(NOW.minus(Duration.ofDays(90)), "mallory", NOW,
                    EvidencePurge.CHUNK, Long.MAX_VALUE)).isInstanceOf(StoreException.class)
                    .hasMessageContaining("permission denied");
        }
        assertThat(row(old.dlqEntryId()).get("payload").toString()).contains(CARD);
    }
}
