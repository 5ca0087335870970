package dev.redrive.worker;

import dev.redrive.store.deadletter.RetentionPolicy;
import dev.redrive.testing.HeldTool;
import dev.redrive.store.deadletter.RetentionPolicyStore;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.DeadLetterFixture;
import dev.redrive.triage.DeadLetterFixture.Created;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A worker applies the namespace's retention policy: old decided entries lose their evidence, nothing else does. */
class RetentionHousekeepingTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @Test
    void aWorkerPurgesWhatThePolicyNoLongerKeeps_andLeavesOpenAndRecentEntriesWhole() throws Exception {
        DeadLetterFixture fixture = new DeadLetterFixture(ns.database());
        Created old = fixture.deadLettered("kept-too-long", "charge").create();
        Created recent = fixture.deadLettered("decided-today", "charge").create();
        Created open = fixture.deadLettered("still-open", "charge").enteredAt(Instant.now().minus(Duration.ofDays(60)))
                .create();
        ns.database().jdbc().update("""
                UPDATE dlq_entries SET decision_state = 'DISCARDED', decided_by = 'alice', decision_reason = 'test',
                       decided_at = CASE WHEN id = ? THEN now() - interval '40 days' ELSE now() END
                 WHERE id IN (?, ?)""", old.dlqEntryId(), old.dlqEntryId(), recent.dlqEntryId());
        new RetentionPolicyStore(ns.database().jdbc()).write(RetentionPolicy.keeping(Duration.ofDays(30)), "carol",
                Instant.now());

        Worker worker = Worker.builder(ns.database(), ns.redis()).tool(HeldTool.answering("test.idle", "{}"))
                .retentionInterval(Duration.ofMillis(200)).build().start();
        try {
            await().atMost(Duration.ofSeconds(20)).until(() -> ns.database().jdbc().queryLong(
                    "SELECT count(*) FROM dlq_entries WHERE id = ? AND evidence_purged_at IS NOT NULL",
                    old.dlqEntryId()) == 1);
        } finally {
            worker.shutdown().get(15, TimeUnit.SECONDS);
        }

        assertThat(ns.database().jdbc().queryLong(
                "SELECT count(*) FROM dlq_entries WHERE id IN (?, ?) AND evidence_purged_at IS NULL AND raw_message IS NOT NULL",
                recent.dlqEntryId(), open.dlqEntryId())).isEqualTo(2);
        assertThat(ns.database().jdbc().queryOne("""
                SELECT actor FROM audit_log WHERE action = 'EVIDENCE_PURGED'""", rs -> rs.getString(1)))
                .contains("retention policy");
    }
}
