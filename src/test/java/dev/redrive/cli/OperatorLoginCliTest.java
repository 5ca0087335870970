package dev.redrive.cli;

import dev.redrive.testing.DatabaseLogin;
import dev.redrive.testing.LoginsFixture;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.DeadLetterFixture.Created;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The command line as alice types it with her own login and someone else's name: {@code --operator bob} is a display
 * name, and every row the decision writes is alice's.
 */
class OperatorLoginCliTest {
    static final TestNamespace ns = new TestNamespace();
    @RegisterExtension
    static final LoginsFixture logins = new LoginsFixture(ns);

    private static DatabaseLogin alice;

    @BeforeAll
    static void start() {
        alice = logins.operator("alice");
    }

    @Test
    void loginAliceTypingOperatorBob_isRecordedAsAlice_andShownAsBobWithAlicesLogin() {
        Created redriven = logins.deadLetters().deadLettered("run-cli-login", "charge").create();
        Created discarded = logins.deadLetters().deadLettered("run-cli-login", "ship").create();

        CliRun redrive = CliRun.as(alice, ns, "redrive", redriven.operationId(), "--reason", "ledger is back",
                "--operator", "bob");
        CliRun reconcile = CliRun.as(alice, ns, "reconcile", discarded.operationId(), "--not-applied", "--evidence",
                "no charge at the PSP", "--operator", "bob");
        CliRun discard = CliRun.as(alice, ns, "discard", discarded.operationId(), "--reason", "duplicate",
                "--operator", "bob");

        assertThat(redrive.exit()).as(redrive.err()).isZero();
        assertThat(reconcile.exit()).as(reconcile.err()).isZero();
        assertThat(discard.exit()).as(discard.err()).isZero();
        String bobAsAlice = "bob/" + alice.login();
        assertThat(logins.admin().query("SELECT actor || '/' || db_login FROM audit_log WHERE operation_id IN (?, ?)",
                row -> row.getString(1), redriven.operationId(), discarded.operationId()))
                .hasSizeGreaterThanOrEqualTo(3).allMatch(bobAsAlice::equals);
        assertThat(logins.admin().queryOne("SELECT operator || '/' || db_login FROM redrive_commands WHERE operation_id = ?",
                row -> row.getString(1), redriven.operationId())).contains(bobAsAlice);
        assertThat(logins.admin().queryOne("SELECT recorded_by || '/' || db_login FROM reconciliations WHERE operation_id = ?",
                row -> row.getString(1), discarded.operationId())).contains(bobAsAlice);
        assertThat(logins.admin().queryOne("SELECT decided_by || '/' || decided_login FROM dlq_entries WHERE id = ?",
                row -> row.getString(1), discarded.dlqEntryId())).contains(bobAsAlice);
        assertThat(CliRun.in(ns, "op", "show", discarded.operationId()).out())
                .contains("bob (login " + alice.login() + ")");
    }
}
