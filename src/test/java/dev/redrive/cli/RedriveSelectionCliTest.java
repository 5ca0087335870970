package dev.redrive.cli;

import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.DeadLetterFixture;
import dev.redrive.triage.DeadLetterFixture.Created;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a redrive takes is what the operator named, the same in a dry run as for real: an empty value never widens a
 * selection to everything, a group with filters is their intersection, an unknown id or a selection a batch would take
 * nothing of is refused before anything is decided, and a four-eyes rule for another tool keeps a group durable.
 */
class RedriveSelectionCliTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static Created charge1;
    private static Created charge2;
    private static Created ship;
    private static Created alone;

    @BeforeAll
    static void incident() {
        DeadLetterFixture fixture = DeadLetterFixture.withChargeTool(ns.database());
        fixture.toolSchema("demo.ship", "1");
        fixture.toolSchema("demo.payout", "1");
        charge1 = fixture.deadLettered("run-sel", "charge-1").fingerprint("fp-mixed").create();
        charge2 = fixture.deadLettered("run-sel", "charge-2").fingerprint("fp-mixed").create();
        ship = fixture.deadLettered("run-sel", "ship-1").tool("demo.ship").fingerprint("fp-mixed").create();
        alone = fixture.deadLettered("run-alone", "n").fingerprint("fp-alone").create();
        // No longer its operation's own entry: a message dead-lettered as itself that merely names the operation.
        ns.database().jdbc().update("UPDATE dlq_entries SET dedup_key = 'raw:' || id WHERE id = ?", alone.dlqEntryId());
    }

    @Test
    void anEmptyGroupOrFilter_isRefused_neverEveryOpenEntry() {
        CliRun emptyGroup = CliRun.in(ns, "redrive", "--group", "", "--reason", "x");
        assertThat(emptyGroup.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(emptyGroup.err()).startsWith("redrive: --group was given an empty value; expected a value, or leave "
                + "--group out").hasLineCount(1);
        CliRun blankTool = CliRun.in(ns, "redrive", "--run", "run-sel", "--tool", " ", "--reason", "x", "--dry-run");
        assertThat(blankTool.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(blankTool.err()).contains("--tool was given an empty value");
        assertThat(commands()).isZero();
    }

    @Test
    void aRateThatIsNoNumberOfItemsPerSecond_isOneLine_andNothingIsDecided() {
        for (String rate : new String[]{"NaN", "Infinity", "-Infinity"}) {
            CliRun run = CliRun.in(ns, "redrive", "--run", "run-sel", "--reason", "x", "--rate", rate);
            assertThat(run.exit()).as(rate).isEqualTo(ExitCode.USAGE);
            assertThat(run.err()).as(rate).startsWith("redrive: Invalid value for option '--rate': expected a number "
                    + "such as 2 or 0.5, got '" + rate + "'").hasLineCount(1);
        }
        CliRun negative = CliRun.in(ns, "redrive", "--run", "run-sel", "--reason", "x", "--rate", "-1");
        assertThat(negative.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(negative.err()).startsWith("redrive: the rate must be a number of items per second, 0 (unlimited) or "
                + "more, got ").hasLineCount(1);
        assertThat(commands()).isZero();
    }

    @Test
    void aGroupWithAFilter_takesTheirIntersection_inADryRunAsForReal_andAnIdNamedToo_once() {
        CliRun dry = CliRun.in(ns, "redrive", "--group", "fp-mixed", "--tool", "demo.charge", charge1.operationId(),
                "--reason", "x", "--dry-run");

        assertThat(dry.out()).contains("2 item(s), dry run").doesNotContain(ship.operationId());
        assertThat(dry.out().lines().filter(line -> line.startsWith(charge1.operationId() + ":"))).hasSize(1);
        assertThat(dry.out().lines().filter(line -> line.startsWith(charge2.operationId() + ":"))).hasSize(1);
    }

    @Test
    void anUnknownOperationId_isBadInputInOneLine_andNothingIsDecided() {
        CliRun unknown = CliRun.in(ns, "redrive", charge1.operationId(), "nope:n:0", "--reason", "x", "--operator", "a");

        assertThat(unknown.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(unknown.err().strip()).isEqualTo("redrive: no operation 'nope:n:0' in namespace " + ns.name());
        assertThat(commands()).isZero();
    }

    @Test
    void aGroupOfEntriesWithoutAnOperationOfTheirOwn_recordsNoBatch() {
        CliRun refused = CliRun.in(ns, "redrive", "--group", "fp-alone", "--reason", "x", "--operator", "a");

        assertThat(refused.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(refused.err().strip()).isEqualTo("redrive: the one open entry matching fingerprint fp-alone has no "
                + "operation of its own (entry " + alone.dlqEntryId() + "): nothing to redrive as a batch; decide it "
                + "with --entry ID (see redrive redrive --help)");
        assertThat(ns.database().jdbc().queryLong(
                "SELECT count(*) FROM redrive_batches WHERE selection::text LIKE '%fp-alone%'")).isZero();
    }

    @Test
    void anEmptyOperatorName_isRefused_notTakenForTheOsUser() {
        CliRun empty = CliRun.in(ns, "redrive", charge1.operationId(), "--reason", "x", "--operator", " ");

        assertThat(empty.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(empty.err()).contains("--operator was given an empty name; expected who decides");
        assertThat(commands()).isZero();
    }

    @Test
    void aResumeTakesNoRate_theBatchKeepsItsOwn() {
        CliRun resume = CliRun.in(ns, "redrive", "--resume", "1", "--rate", "10");

        assertThat(resume.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(resume.err()).contains("--batches and --resume BATCH take no operations, group, filter, --reason, "
                + "--operator, --rate");
    }

    @Test
    void aFourEyesRuleForAnotherTool_leavesAGroupDurable_oneForItsToolMakesItARequest() {
        CliRun on = CliRun.in(ns, "policy", "four-eyes", "on", "--tools", "demo.payout", "--operator", "carol");
        assertThat(on.exit()).as(on.err()).isZero();
        try {
            CliRun durable = CliRun.in(ns, "redrive", "--group", "fp-mixed", "--tool", "demo.ship", "--reason", "x",
                    "--operator", "alice", "--verbose");
            assertThat(durable.exit()).as(durable.err()).isZero();
            Matcher started = Pattern.compile("batch (\\d+): redrive of ").matcher(durable.out());
            assertThat(started.find()).as(durable.out()).isTrue();
            assertThat(durable.out()).contains(ship.operationId() + ": DONE");

            assertThat(CliRun.in(ns, "policy", "four-eyes", "on", "--tools", "demo.charge", "--operator", "carol")
                    .exit()).isZero();
            CliRun covered = CliRun.in(ns, "redrive", "--group", "fp-mixed", "--reason", "x", "--operator", "alice");
            assertThat(covered.exit()).isEqualTo(ExitCode.WAITS_FOR_APPROVAL);
            assertThat(covered.out()).contains("waits for a second operator's approval (four-eyes covers tool "
                    + "demo.charge)");
            assertThat(ns.database().jdbc().queryLong("SELECT count(*) FROM redrive_commands WHERE operation_id <> ?",
                    ship.operationId())).isZero();
        } finally {
            CliRun.in(ns, "policy", "four-eyes", "off", "--operator", "carol");
        }
    }

    private static long commands() {
        return ns.database().jdbc().queryLong("SELECT count(*) FROM redrive_commands WHERE operation_id <> ?",
                ship.operationId());
    }
}
