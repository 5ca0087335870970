package dev.redrive.triage.decision;

import dev.redrive.triage.redaction.Redactor;
import dev.redrive.report.ReportService;
import dev.redrive.store.StoreException;
import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.testing.DatabaseLogin;
import dev.redrive.testing.LoginsFixture;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.DeadLetterFixture.Created;
import dev.redrive.triage.detail.OperationDetailsLoader;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.query.DlqFilter;
import dev.redrive.triage.query.JdbcDlqQueries;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A login in the namespace's viewer role reads everything the triage core shows and the database refuses its decisions. */
class ViewerRoleTest {
    static final TestNamespace ns = new TestNamespace();
    @RegisterExtension
    static final LoginsFixture logins = new LoginsFixture(ns);

    private static DatabaseLogin viewer;
    private static Decisions asViewer;

    @BeforeAll
    static void start() {
        viewer = logins.viewer("carol");
        asViewer = logins.decisionsAs(viewer);
    }

    @Test
    void theViewerReadsTheDlqTheDetailAndTheReport_andEveryCheckPasses() {
        Created op = logins.deadLetters().deadLettered("run-read", "charge").create();

        assertThat(new JdbcDlqQueries(viewer.database()).firstPage(DlqFilter.none(), 50).rows())
                .anyMatch(row -> row.operationId().equals(op.operationId()));
        assertThat(new OperationDetailsLoader(viewer.database()).require(op.operationId()).attempts()).isNotEmpty();
        assertThat(new ReportService(viewer.database(), Clock.systemUTC(), Redactor.defaults()).operation(op.operationId())
                .operations()).singleElement().extracting(report -> report.details().operation().operationId())
                .isEqualTo(op.operationId());
        assertThat(asViewer.checkRedrive(DecisionTarget.operation(op.operationId())).outcome())
                .isEqualTo(DecisionOutcome.WOULD_PASS);
    }

    @Test
    void everyDecisionOfTheViewer_isRefusedByTheDatabase_namingTheRole_andLeavesNoTrace() {
        Created op = logins.deadLetters().deadLettered("run-refused", "charge").create();
        DecisionTarget target = DecisionTarget.operation(op.operationId());
        long dispatched = ns.redis().sync().xlen(ns.redis().keys().dispatch());

        DecisionResult redrive = asViewer.redrive(target, "carol", "ledger is back");
        DecisionResult discard = asViewer.discard(target, "carol", "duplicate");

        assertThat(redrive.outcome()).isEqualTo(DecisionOutcome.REFUSED);
        assertThat(redrive.recorded()).isFalse();
        assertThat(redrive.message()).startsWith("refused by the database: read-only: role " + viewer.login() + " is a viewer")
                .contains("permission denied");
        assertThat(discard.outcome()).isEqualTo(DecisionOutcome.REFUSED);
        assertThatThrownBy(() -> asViewer.recordReconciliation(op.operationId(), ReconciliationOutcome.NOT_APPLIED,
                "no charge in the ledger", null, "carol"))
                .isInstanceOf(StoreException.class)
                .hasMessageStartingWith("read-only: role " + viewer.login() + " is a viewer");
        assertThat(logins.admin().queryLong("SELECT count(*) FROM redrive_commands WHERE operation_id = ?", op.operationId())).isZero();
        assertThat(logins.admin().queryLong("SELECT count(*) FROM reconciliations WHERE operation_id = ?", op.operationId())).isZero();
        assertThat(logins.admin().queryLong("SELECT count(*) FROM audit_log WHERE operation_id = ?", op.operationId())).isZero();
        assertThat(logins.admin().queryOne("SELECT status FROM operations WHERE operation_id = ?", row -> row.getString(1),
                op.operationId())).contains("DEAD_LETTERED");
        assertThat(logins.admin().queryOne("SELECT decision_state FROM dlq_entries WHERE id = ?", row -> row.getString(1),
                op.dlqEntryId())).contains("OPEN");
        assertThat(ns.redis().sync().xlen(ns.redis().keys().dispatch())).isEqualTo(dispatched);
    }

    @Test
    void accessNamesWhatTheViewerLacks_andTheMigratingRoleMayDecide() {
        DecisionAccess viewerAccess = DecisionAccess.of(viewer.database());
        DecisionAccess adminAccess = DecisionAccess.of(ns.database());

        assertThat(viewerAccess.canDecide()).isFalse();
        assertThat(viewerAccess.viewer()).isTrue();
        assertThat(viewerAccess.missingGrants()).containsExactly("UPDATE on operations", "UPDATE on dlq_entries",
                "INSERT on redrive_commands", "INSERT on reconciliations", "INSERT on audit_log");
        assertThat(adminAccess.canDecide()).isTrue();
        assertThat(adminAccess.readOnlyReason()).isEmpty();
    }

    @Test
    void tablesCreatedAfterTheMigration_areReadableByTheViewerToo() {
        logins.admin().update("CREATE TABLE later_table (id int)");
        logins.admin().update("INSERT INTO later_table VALUES (7)");

        assertThat(viewer.database().jdbc().queryLong("SELECT id FROM later_table")).isEqualTo(7);
        assertThatThrownBy(() -> viewer.database().jdbc().update("INSERT INTO later_table VALUES (8)"))
                .isInstanceOf(StoreException.class).matches(e -> ((StoreException) e).isRefused());
    }
}
