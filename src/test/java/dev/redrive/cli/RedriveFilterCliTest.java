package dev.redrive.cli;

import dev.redrive.model.FailureClass;
import dev.redrive.model.SideEffectState;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.DeadLetterFixture;
import dev.redrive.triage.DeadLetterFixture.Created;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code redrive} over every open entry a DLQ filter matches, beside operation ids and --group. */
class RedriveFilterCliTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static Created timedOut;
    private static Created uncertain;
    private static Created otherTool;

    @BeforeAll
    static void incident() {
        DeadLetterFixture fixture = DeadLetterFixture.withChargeTool(ns.database());
        fixture.toolSchema("demo.ship", "1");
        timedOut = fixture.deadLettered("run-filter", "charge-1").message("ledger timed out").create();
        uncertain = fixture.deadLettered("run-filter", "charge-2").errorClass(FailureClass.UNKNOWN_SIDE_EFFECT)
                .sideEffect(SideEffectState.POSSIBLE).message("ledger timed out").create();
        otherTool = fixture.deadLettered("run-filter", "ship-1").tool("demo.ship").message("ledger timed out").create();
    }

    @Test
    void aFilter_takesEveryOpenEntryItMatches_andDecidesEachOnItsOwnMerits() {
        CliRun dry = CliRun.in(ns, "redrive", "--tool", "demo.charge", "--text", "timed out", "--reason", "ledger back",
                "--dry-run");
        assertThat(dry.out()).contains(timedOut.operationId() + ": WOULD_PASS", uncertain.operationId() + ": BLOCKED")
                .doesNotContain(otherTool.operationId()).contains("2 item(s), dry run");
        assertThat(dry.exit()).isEqualTo(ExitCode.BLOCKED);

        CliRun real = CliRun.in(ns, "redrive", "--tool", "demo.charge", "--run", "run-filter", "--reason", "ledger back",
                "--operator", "alice", "--verbose");
        assertThat(real.out()).contains(timedOut.operationId() + ": DONE", uncertain.operationId() + ": BLOCKED");
        assertThat(ns.database().jdbc().queryLong("SELECT count(*) FROM redrive_commands WHERE operation_id = ?",
                timedOut.operationId())).isEqualTo(1);
        assertThat(ns.database().jdbc().queryLong("SELECT count(*) FROM redrive_commands WHERE operation_id <> ?",
                timedOut.operationId())).isZero();
    }

    @Test
    void aFilterForDecidedEntries_orNothingToTake_isBadInputInOneLine() {
        CliRun decided = CliRun.in(ns, "redrive", "--state", "redriven", "--reason", "again");
        assertThat(decided.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(decided.err()).contains("a redrive takes open entries only: --state must be open, got redriven");

        CliRun nothing = CliRun.in(ns, "redrive", "--reason", "why");
        assertThat(nothing.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(nothing.err()).contains("name the operations to redrive, a group with --group FP, or the open entries");
    }
}
