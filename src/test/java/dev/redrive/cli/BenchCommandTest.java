package dev.redrive.cli;

import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The benchmark programs run end to end on a small scale and print their ratios. Nothing here is timed: the figures a
 * benchmark prints mean something only on a machine measured as README's benchmark section says, but a benchmark that
 * no longer runs, or prints a ratio without its baseline, would be found only by the next person measuring.
 */
class BenchCommandTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final String NUMBER = "[0-9]+(\\.[0-9]+)?";

    @Test
    void benchWorker_drainsEveryOperation_andPrintsItsRatiosAgainstTheCeilingAndTheMedian() {
        CliRun run = CliRun.in(ns, "bench", "worker", "--operations", "400", "--drains", "2");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out())
                .containsPattern("baseline: PostgreSQL commits " + NUMBER + " single-row transactions/s from 8 connections")
                .containsPattern("published 400 dispatches in bulk: " + NUMBER + "/s; one client commits " + NUMBER)
                .containsPattern("drain 1 \\(warm-up, not counted\\): 400 operations in ")
                .containsPattern("drain 2: 400 operations in " + NUMBER + " s = " + NUMBER + " operations/s, " + NUMBER
                        + "x of the " + NUMBER + " commits/s measured around it")
                .containsPattern("ratio: +" + NUMBER + "x of the commit ceiling \\(target >= 0.80x\\)")
                .containsPattern("spread: +1 drains counted after 1 warm-up drains; .* median " + NUMBER + "x, slowest "
                        + NUMBER + "x, " + NUMBER + "x of the median \\(target >= 0.70x\\); in operations/s: median "
                        + NUMBER + ", slowest " + NUMBER + ", " + NUMBER + "x; longest stall")
                .containsPattern("cold: +drain 1, the first work of a fresh JVM \\(as a worker process starts\\): "
                        + NUMBER + " operations/s = " + NUMBER + "x of the ceiling")
                .containsPattern("warm: +median of the counted drains: " + NUMBER + " operations/s = " + NUMBER + "x");
        assertThat(ns.database().jdbc().queryLong(
                "SELECT count(*) FROM information_schema.schemata WHERE schema_name = ?", ns.name()))
                .as("the throw-away namespace is dropped").isZero();
    }

    @Test
    void benchBatch_decidesEveryItemOnceAndPrintsItsColdAndWarmFigures() {
        CliRun run = CliRun.in(ns, "bench", "batch", "--entries", "300", "--rounds", "2");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out())
                .containsPattern("round 1: one client commits " + NUMBER + " single-row transactions/s; dry run 300 items")
                .containsPattern("round 2: one client commits " + NUMBER + " single-row transactions/s; dry run 300 items")
                .contains("(600 commands, 600 audit lines, 600 dispatches published)")
                .containsPattern("cold \\(round 1, the first work of a fresh JVM, as the CLI runs it\\): redrive "
                        + "--group " + NUMBER + " items/s = " + NUMBER + "x one client's commits")
                .containsPattern("warm \\(median of rounds 2 to 2\\): redrive --group " + NUMBER + " items/s = "
                        + NUMBER + "x one client's commits");
    }

    @Test
    void benchCli_runsEachCommandInANewJvm_andPrintsItsColdRatios() {
        CliRun run = CliRun.in(ns, "bench", "cli", "--dead-letters", "200", "--dispatches", "300");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out())
                .containsPattern("redrive --group of 200 dead letters a worker produced, cold: " + NUMBER
                        + " s after the JVM's start \\(" + NUMBER + " s, timed with dlq groups\\) = " + NUMBER
                        + " items/s = " + NUMBER + "x one client's single-row commits")
                .containsPattern("dispatch --file of 300 new operations, cold: " + NUMBER + " s after");
        assertThat(ns.database().jdbc().queryLong(
                "SELECT count(*) FROM information_schema.schemata WHERE schema_name = ?", ns.name()))
                .as("the throw-away namespace is dropped").isZero();
    }
}
