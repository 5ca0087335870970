package dev.redrive.cli;

import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import io.lettuce.core.Range;

import static org.assertj.core.api.Assertions.assertThat;

class WorkerCommandsTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static CliRun run(String... args) {
        return CliRun.in(ns, args);
    }

    private static String query(String sql, Object... params) {
        return ns.database().jdbc().queryOne(sql, row -> row.getString(1), params).orElse(null);
    }

    @Test
    void dispatch_recordsTheOperationThenPublishesIt() {
        CliRun outcome = run("dispatch", "--run", "cli-run", "--node", "charge", "--tool", "demo.charge",
                "--payload", "{\"amount\":5}", "--trace-id", "t-1");

        assertThat(outcome.exit()).isZero();
        assertThat(outcome.out()).startsWith("dispatched cli-run:charge:0 attempt 1 as entry ");
        assertThat(query("SELECT status || '/' || tool_schema_version || '/' || trace_id FROM operations WHERE operation_id = 'cli-run:charge:0'"))
                .isEqualTo("PENDING/1/t-1");
        assertThat(ns.redis().sync().xrange(ns.redis().keys().dispatch(), Range.unbounded()))
                .extracting(entry -> entry.getBody().get("operation_id")).contains("cli-run:charge:0");
    }

    @Test
    void dispatch_withAPayloadThatIsNotJson_failsWithOneLine() {
        CliRun outcome = run("dispatch", "--run", "cli-bad", "--node", "n", "--tool", "demo.charge", "--payload", "amount=5");

        assertThat(outcome.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(outcome.err().strip()).startsWith("dispatch: payload is not JSON").doesNotContain("\n");
    }

    @Test
    void dispatchAgain_withTheSameParameters_isIdempotent_withOtherParameters_isAConflict() {
        CliRun first = run("dispatch", "--run", "cli-reuse", "--node", "charge", "--tool", "demo.charge",
                "--payload", "{\"amount\":10,\"currency\":\"EUR\"}");
        CliRun same = run("dispatch", "--run", "cli-reuse", "--node", "charge", "--tool", "demo.charge",
                "--payload", "{ \"currency\": \"EUR\", \"amount\": 10.0 }");
        CliRun other = run("dispatch", "--run", "cli-reuse", "--node", "charge", "--tool", "demo.charge",
                "--payload", "{\"amount\":99,\"currency\":\"EUR\"}");

        assertThat(first.exit()).isZero();
        assertThat(same.exit()).isZero();
        assertThat(same.out()).startsWith("already dispatched, published again: cli-reuse:charge:0 attempt 1");
        assertThat(other.exit()).isEqualTo(ExitCode.BLOCKED);
        assertThat(other.out()).isEmpty();
        assertThat(other.err().strip()).doesNotContain("\n")
                .matches("dispatch: conflict: operation cli-reuse:charge:0 was recorded with parameters [0-9a-f]{64}, "
                        + "this dispatch carries [0-9a-f]{64} .*");
        assertThat(query("SELECT payload->>'amount' FROM operations WHERE operation_id = 'cli-reuse:charge:0'"))
                .as("the recorded operation is untouched").isEqualTo("10");
        assertThat(ns.redis().sync().xrange(ns.redis().keys().dispatch(), Range.unbounded()))
                .filteredOn(entry -> "cli-reuse:charge:0".equals(entry.getBody().get("operation_id")))
                .extracting(entry -> entry.getBody().get("payload")).doesNotContain("{\"amount\":99,\"currency\":\"EUR\"}");
    }

    @Test
    void runCancel_cancelsTheRunOnce() {
        run("dispatch", "--run", "cli-cancel", "--node", "n", "--tool", "demo.charge", "--payload", "{}");

        CliRun first = run("run", "cancel", "cli-cancel", "--reason", "order withdrawn");
        CliRun second = run("run", "cancel", "cli-cancel");

        assertThat(first.exit()).isZero();
        assertThat(first.out()).contains("1 waiting operation(s) cancelled");
        assertThat(query("SELECT status || '/' || status_reason FROM runs WHERE run_id = 'cli-cancel'"))
                .isEqualTo("CANCELLED/order withdrawn");
        assertThat(query("SELECT status FROM operations WHERE run_id = 'cli-cancel'")).isEqualTo("CANCELLED");
        assertThat(second.exit()).as("a run cancelled already is a state that came first, not bad input")
                .isEqualTo(ExitCode.BLOCKED);
        assertThat(second.err().strip()).isEqualTo("cancel: run cli-cancel is CANCELLED already: nothing to cancel");
        assertThat(run("run", "cancel", "cli-nobody-ran").exit()).isEqualTo(ExitCode.USAGE);
    }

    @Test
    void toolSchemaSet_replacesTheCurrentVersionAndKeepsTheHistory() {
        assertThat(run("tool", "schema", "set", "cli.tool", "1").exit()).isZero();
        CliRun second = run("tool", "schema", "set", "cli.tool", "2", "--by", "alice");

        assertThat(second.out()).contains("cli.tool schema version is now 2 (was 1)");
        assertThat(query("SELECT string_agg(version || ':' || is_current, ',' ORDER BY version) FROM tool_schemas WHERE tool = 'cli.tool'"))
                .isEqualTo("1:false,2:true");
    }

    @Test
    void approvalGrantThenRevoke_isAuditedAndCannotBeRevokedTwice() {
        CliRun grant = run("approval", "grant", "appr-1", "--scope", "charges<=500", "--expires-at", "2099-01-01T00:00:00Z",
                "--by", "alice");
        CliRun revoke = run("approval", "revoke", "appr-1", "--reason", "limit exceeded", "--by", "bob");
        CliRun again = run("approval", "revoke", "appr-1");

        assertThat(grant.exit()).isZero();
        assertThat(revoke.exit()).isZero();
        assertThat(query("SELECT granted_by || '/' || revoked_by || '/' || revoke_reason FROM approvals WHERE approval_id = 'appr-1'"))
                .isEqualTo("alice/bob/limit exceeded");
        assertThat(query("SELECT count(*)::text FROM audit_log WHERE action IN ('approval_granted', 'approval_revoked')"))
                .isEqualTo("2");
        assertThat(again.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(again.err()).contains("approval appr-1 is already revoked");
    }
}
