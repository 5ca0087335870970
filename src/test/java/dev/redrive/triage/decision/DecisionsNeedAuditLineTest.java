package dev.redrive.triage.decision;

import dev.redrive.store.Jdbc;
import dev.redrive.store.approval.ApprovalStore;
import dev.redrive.store.Jdbc.Json;
import dev.redrive.store.StoreException;
import dev.redrive.testing.DatabaseLogin;
import dev.redrive.testing.LoginsFixture;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.DeadLetterFixture.Created;
import dev.redrive.triage.precondition.DecisionTarget;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Instant;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An operator's login may write what a decision writes, so the database itself refuses a decided change that comes
 * without its audit line in the same transaction: a plain UPDATE or INSERT by SQL is refused and changes nothing, the
 * application's paths (which write both) go through, and a line written by hand beside the change names the login.
 */
class DecisionsNeedAuditLineTest {
    static final TestNamespace ns = new TestNamespace();
    @RegisterExtension
    static final LoginsFixture logins = new LoginsFixture(ns);

    private static DatabaseLogin alice;
    private static Jdbc asAlice;

    @BeforeAll
    static void start() {
        alice = logins.operator("alice");
        asAlice = alice.database().jdbc();
    }

    @Test
    void aPlainUpdateOfAnEntrysDecision_isRefused_andChangesNothing() {
        Created op = logins.deadLetters().deadLettered("run-sql", "charge").create();

        assertRefused(() -> asAlice.update("UPDATE dlq_entries SET decision_state = 'DISCARDED', decided_by = 'alice', "
                + "decided_at = now(), version = version + 1 WHERE id = ?", op.dlqEntryId()));

        assertThat(logins.admin().queryOne("SELECT decision_state || '/' || version FROM dlq_entries WHERE id = ?",
                row -> row.getString(1), op.dlqEntryId())).contains("OPEN/0");
    }

    @Test
    void aPlainMoveOfADeadLetteredOperation_isRefused() {
        Created op = logins.deadLetters().deadLettered("run-sql", "ship").create();

        assertRefused(() -> asAlice.update("UPDATE operations SET status = 'PENDING' WHERE operation_id = ?",
                op.operationId()));
        assertRefused(() -> asAlice.update("UPDATE operations SET status = 'SUCCEEDED' WHERE operation_id = ?",
                op.operationId()));

        assertThat(logins.admin().queryOne("SELECT status FROM operations WHERE operation_id = ?", row -> row.getString(1),
                op.operationId())).contains("DEAD_LETTERED");
    }

    @Test
    void aCommandOrAnApprovalInsertedBySql_isRefused() {
        Created op = logins.deadLetters().deadLettered("run-sql", "refund").create();

        assertRefused(() -> asAlice.update("""
                INSERT INTO redrive_commands (command_id, operation_id, dlq_entry_id, operator, reason, from_attempt,
                                              to_attempt, target_schema_version, preconditions, status)
                VALUES (?, ?, ?, 'alice', 'by hand', 0, 1, '1', '{}', 'ISSUED')""",
                UUID.randomUUID(), op.operationId(), op.dlqEntryId()));
        assertRefused(() -> asAlice.update(
                "INSERT INTO approvals (approval_id, scope, granted_by) VALUES ('appr-by-hand', 'demo.charge', 'alice')"));

        assertThat(logins.admin().queryLong("SELECT count(*) FROM redrive_commands WHERE operation_id = ?", op.operationId()))
                .isZero();
        assertThat(logins.admin().queryLong("SELECT count(*) FROM approvals WHERE approval_id = 'appr-by-hand'")).isZero();
    }

    @Test
    void theDecisionPaths_goThrough_asTheOperatorsLogin() {
        Created redriven = logins.deadLetters().deadLettered("run-paths", "charge").create();
        Created discarded = logins.deadLetters().deadLettered("run-paths", "ship").create();
        Decisions decisions = logins.decisionsAs(alice);

        assertThat(decisions.redrive(DecisionTarget.operation(redriven.operationId()), "alice", "ledger is back")
                .outcome()).isEqualTo(DecisionOutcome.DONE);
        assertThat(decisions.discard(DecisionTarget.operation(discarded.operationId()), "alice", "duplicate")
                .outcome()).isEqualTo(DecisionOutcome.DONE);

        assertThat(logins.admin().queryOne("SELECT string_agg(decision_state, ',' ORDER BY id) FROM dlq_entries WHERE id IN (?, ?)",
                row -> row.getString(1), redriven.dlqEntryId(), discarded.dlqEntryId())).contains("REDRIVEN,DISCARDED");

        ApprovalStore approvals = new ApprovalStore(asAlice);
        approvals.grant("appr-alice", "demo.charge", "alice", null, Instant.now());
        approvals.revoke("appr-alice", "alice", "granted by mistake", Instant.now());
        assertThat(logins.admin().queryOne("SELECT revoked_by FROM approvals WHERE approval_id = 'appr-alice'",
                row -> row.getString(1))).contains("alice");
    }

    @Test
    void aChangeWithAnAuditLineInItsTransaction_isAccepted_andTheLineNamesTheLogin() {
        Created op = logins.deadLetters().deadLettered("run-by-hand", "charge").create();

        asAlice.inTransaction(() -> {
            asAlice.update("INSERT INTO audit_log (actor, action, operation_id, dlq_entry_id, reason, details) "
                    + "VALUES ('alice', 'DISCARD', ?, ?, 'by hand', ?)", op.operationId(), op.dlqEntryId(),
                    new Json("{}"));
            asAlice.update("UPDATE dlq_entries SET decision_state = 'DISCARDED', decided_by = 'alice', "
                    + "decided_at = now(), version = version + 1 WHERE id = ?", op.dlqEntryId());
        });

        assertThat(logins.admin().queryOne("SELECT decision_state || '/' || decided_login FROM dlq_entries WHERE id = ?",
                row -> row.getString(1), op.dlqEntryId())).contains("DISCARDED/" + alice.login());
        assertThat(logins.admin().queryOne("SELECT db_login FROM audit_log WHERE dlq_entry_id = ? AND reason = 'by hand'",
                row -> row.getString(1), op.dlqEntryId())).contains(alice.login());
    }

    @Test
    void anAuditLineAboutAnotherEntry_doesNotCoverTheChange() {
        Created decided = logins.deadLetters().deadLettered("run-other", "charge").create();
        Created other = logins.deadLetters().deadLettered("run-other", "ship").create();

        assertRefused(() -> asAlice.inTransaction(() -> {
            asAlice.update("INSERT INTO audit_log (actor, action, dlq_entry_id) VALUES ('alice', 'NOTE', ?)",
                    other.dlqEntryId());
            asAlice.update("UPDATE dlq_entries SET decision_reason = 'quietly' WHERE id = ?", decided.dlqEntryId());
        }));

        assertThat(logins.admin().queryOne("SELECT decision_reason IS NULL FROM dlq_entries WHERE id = ?",
                row -> row.getBoolean(1), decided.dlqEntryId())).contains(true);
    }

    private static void assertRefused(Runnable statement) {
        assertThatThrownBy(statement::run).isInstanceOf(StoreException.class)
                .matches(e -> ((StoreException) e).isRefused(), "refused by the database")
                .hasMessageContaining("has no audit line in its transaction");
    }
}
