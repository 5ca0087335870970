package dev.redrive.cli;

import dev.redrive.testing.DatabaseLogin;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.DeadLetterFixture;
import dev.redrive.triage.DeadLetterFixture.Created;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** dlq purge and policy retention as an operator types them, against a real PostgreSQL. */
class RetentionCliTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static Created old;
    private static Created open;

    @BeforeAll
    static void entries() {
        DeadLetterFixture fixture = DeadLetterFixture.withChargeTool(ns.database());
        old = fixture.deadLettered("retention-old", "charge").payload("{\"amount\": 10}").create();
        open = fixture.deadLettered("retention-open", "charge").payload("{\"amount\": 11}").create();
        assertThat(CliRun.in(ns, "discard", old.operationId(), "--reason", "refunded by hand", "--operator", "alice")
                .exit()).isZero();
        ns.database().jdbc().update("UPDATE dlq_entries SET decided_at = ? WHERE id = ?",
                Instant.now().minus(Duration.ofDays(120)), old.dlqEntryId());
    }

    @Test
    void aDryRunSaysWhatWouldGo_thenThePurgeRemovesIt_andOpShowSaysSo() {
        CliRun dry = CliRun.in(ns, "dlq", "purge", "--decided-before", "-90d", "--dry-run");
        assertThat(dry.exit()).isZero();
        assertThat(dry.out()).startsWith("dry run: would purge the evidence of 1 entries decided before");
        assertThat(ns.database().jdbc().queryLong("SELECT count(*) FROM dlq_entries WHERE raw_message IS NULL"))
                .isZero();

        CliRun purged = CliRun.in(ns, "dlq", "purge", "--decided-before", "-90d", "--operator", "carol", "--json");
        assertThat(purged.exit()).as(purged.err()).isZero();
        assertThat(purged.out()).contains("\"entries\" : 1");

        CliRun shown = CliRun.in(ns, "op", "show", "--entry", String.valueOf(old.dlqEntryId()));
        assertThat(shown.out()).contains("decision    DISCARDED by alice").contains("raw message purged by retention at").contains("the operation's own record is never purged");
        CliRun stillOpen = CliRun.in(ns, "op", "show", "--entry", String.valueOf(open.dlqEntryId()));
        assertThat(stillOpen.out()).doesNotContain("purged").contains("raw message {");

        CliRun again = CliRun.in(ns, "dlq", "purge", "--decided-before", "-90d");
        assertThat(again.out()).startsWith("nothing to purge");
    }

    @Test
    void anOperatorLoginMayNotPurge_exit5() {
        Created decided = new DeadLetterFixture(ns.database()).deadLettered("retention-refused", "charge").create();
        ns.database().jdbc().update("UPDATE dlq_entries SET decision_state = 'DISCARDED', decided_by = 'alice', "
                + "decision_reason = 'test', decided_at = now() - interval '3 days' WHERE id = ?", decided.dlqEntryId());
        try (DatabaseLogin login = DatabaseLogin.operator(ns, "cli_purger")) {
            CliRun refused = CliRun.in(ns, "dlq", "purge", "--decided-before", "-1d", "--pg-user", login.login(),
                    "--pg-password-file", CliRun.passwordFile(login.config().pgPassword()));
            assertThat(refused.exit()).as(refused.out()).isEqualTo(5);
            assertThat(refused.err().strip().lines()).hasSize(1);
        }
    }

    @Test
    void badInputIsOneLineNamingWhatIsExpected() {
        CliRun time = CliRun.in(ns, "dlq", "purge", "--decided-before", "last tuesday");
        assertThat(time.exit()).isEqualTo(2);
        assertThat(time.err()).contains("--decided-before").contains("expected an instant");

        CliRun future = CliRun.in(ns, "dlq", "purge", "--decided-before", "2999-01-01");
        assertThat(future.exit()).isEqualTo(2);
        assertThat(future.err()).contains("--decided-before must be in the past (e.g. -90d), got 2999-");
        CliRun ancient = CliRun.in(ns, "dlq", "purge", "--decided-before", "-999999999d");
        assertThat(ancient.exit()).isEqualTo(2);
        assertThat(ancient.err()).contains("--decided-before").contains("expected a time between 0001-01-01 and 9999-12-31");
        CliRun tooShort = CliRun.in(ns, "policy", "retention", "1s", "--operator", "carol");
        assertThat(tooShort.exit()).isEqualTo(2);
        assertThat(tooShort.err()).contains("retention keeps evidence at least 1h and at most 36500d, got 1s");

        CliRun keep = CliRun.in(ns, "policy", "retention", "forever", "--operator", "carol");
        assertThat(keep.exit()).isEqualTo(2);
        assertThat(keep.err().strip()).endsWith("retention must be a positive duration such as 30m, 24h, 7d or PT24H, "
                + "got 'forever' (see redrive policy retention --help)");
    }

    @Test
    void thePolicyIsSetShownAndAudited() {
        CliRun set = CliRun.in(ns, "policy", "retention", "90d", "--operator", "carol");
        assertThat(set.exit()).as(set.err()).isZero();
        assertThat(set.out()).startsWith("retention on: decided entries keep their evidence for 90d");
        assertThat(CliRun.in(ns, "policy", "show").out()).contains("four-eyes").contains("retention on");
        assertThat(CliRun.in(ns, "policy", "show", "--json").out()).contains("\"keep_evidence\"");

        CliRun off = CliRun.in(ns, "policy", "retention", "off", "--operator", "carol");
        assertThat(off.out()).startsWith("retention off");
        assertThat(ns.database().jdbc().query("""
                SELECT details->>'after' FROM audit_log WHERE action = 'POLICY_CHANGED' AND details->>'policy' = 'retention'
                 ORDER BY id""", rs -> rs.getString(1))).hasSize(2).last().asString().startsWith("retention off");
    }
}
