package dev.redrive.triage.decision;

import dev.redrive.store.Jdbc;
import dev.redrive.store.StoreException;
import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.testing.DatabaseLogin;
import dev.redrive.testing.LoginsFixture;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.DeadLetterFixture.Created;
import dev.redrive.triage.precondition.DecisionTarget;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Who decided is the database login that made the change, stamped by the database itself: a typed operator name is
 * only a display name beside it, and no statement of the application can write another login.
 */
class DatabaseIdentityTest {
    static final TestNamespace ns = new TestNamespace();
    @RegisterExtension
    static final LoginsFixture logins = new LoginsFixture(ns);

    private static DatabaseLogin alice;
    private static Decisions asAlice;

    @BeforeAll
    static void start() {
        alice = logins.operator("alice");
        asAlice = logins.decisionsAs(alice);
    }

    @Test
    void aDecisionByAliceTypedAsBob_isRecordedAsAlicesLogin_withBobAsTheDisplayName() {
        Created redriven = logins.deadLetters().deadLettered("run-identity", "charge").create();
        Created discarded = logins.deadLetters().deadLettered("run-identity", "ship").create();

        assertThat(asAlice.redrive(DecisionTarget.operation(redriven.operationId()), "bob", "ledger is back").outcome())
                .isEqualTo(DecisionOutcome.DONE);
        asAlice.recordReconciliation(discarded.operationId(), ReconciliationOutcome.NOT_APPLIED, "no charge", null, "bob");
        assertThat(asAlice.discard(DecisionTarget.operation(discarded.operationId()), "bob", "duplicate").outcome())
                .isEqualTo(DecisionOutcome.DONE);

        assertThat(logins.admin().query("SELECT actor || '/' || db_login FROM audit_log WHERE operation_id IN (?, ?)",
                row -> row.getString(1), redriven.operationId(), discarded.operationId()))
                .isNotEmpty().allMatch(line -> line.equals("bob/" + alice.login()));
        assertThat(logins.admin().queryOne("SELECT operator || '/' || db_login FROM redrive_commands WHERE operation_id = ?",
                row -> row.getString(1), redriven.operationId())).contains("bob/" + alice.login());
        assertThat(logins.admin().queryOne("SELECT decided_by || '/' || decided_login FROM dlq_entries WHERE id = ?",
                row -> row.getString(1), discarded.dlqEntryId())).contains("bob/" + alice.login());
        assertThat(logins.admin().queryOne("SELECT recorded_by || '/' || db_login FROM reconciliations WHERE operation_id = ?",
                row -> row.getString(1), discarded.operationId())).contains("bob/" + alice.login());
    }

    @Test
    void aStatementNamingAnotherLogin_cannotForgeIt() {
        Created op = logins.deadLetters().deadLettered("run-forged", "charge").create();

        Jdbc asAlice = alice.database().jdbc();
        // With its audit line in the same transaction, as DecisionsNeedAuditLineTest requires of a decision by SQL.
        asAlice.inTransaction(() -> {
            asAlice.update("INSERT INTO audit_log (actor, action, operation_id, dlq_entry_id, db_login) "
                    + "VALUES ('mallory', 'NOTE', ?, ?, 'mallory')", op.operationId(), op.dlqEntryId());
            asAlice.update("UPDATE dlq_entries SET decision_state = 'DISCARDED', decided_by = 'mallory', "
                    + "decided_login = 'mallory', decided_at = now(), version = version + 1 WHERE id = ?", op.dlqEntryId());
        });

        assertThat(logins.admin().queryOne("SELECT db_login FROM audit_log WHERE action = 'NOTE' AND operation_id = ?",
                row -> row.getString(1), op.operationId())).contains(alice.login());
        assertThat(logins.admin().queryOne("SELECT decided_login FROM dlq_entries WHERE id = ?", row -> row.getString(1),
                op.dlqEntryId())).contains(alice.login());
    }

    @Test
    void theOperatorRole_decidesButDeletesNothing() {
        Created op = logins.deadLetters().deadLettered("run-delete", "charge").create();

        assertThat(DecisionAccess.of(alice.database()).canDecide()).isTrue();
        assertThatThrownBy(() -> alice.database().jdbc().update("DELETE FROM dlq_entries WHERE id = ?", op.dlqEntryId()))
                .isInstanceOf(StoreException.class).matches(e -> ((StoreException) e).isRefused());
        assertThatThrownBy(() -> alice.database().jdbc().update("DROP TABLE audit_log"))
                .isInstanceOf(StoreException.class);
    }
}
