package dev.redrive.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.BulkDeadLetters;
import dev.redrive.triage.json.TriageJson;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code redrive} over a filter larger than the in-memory cap is a durable batch: listed, resumable, each item once. */
class DurableBatchCliTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    /** More than the 10,000 items a batch held in memory before batches were durable. */
    private static final int ENTRIES = 10_500;

    @BeforeAll
    static void manyDeadLetters() {
        BulkDeadLetters.create(ns.database(), "run-big", "fp-big", ENTRIES);
    }

    @Test
    void aFilterOverMoreThanTenThousandEntries_isOneDurableBatch_listedAndDoneExactlyOnce() throws IOException {
        Path items = Files.createTempFile("redrive-items", ".txt");
        CliRun run = CliRun.in(ns, "redrive", "--run", "run-big", "--tool", "demo.charge", "--reason", "ledger is back",
                "--operator", "alice", "--out", items.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        Matcher started = Pattern.compile("batch (\\d+): redrive of tool demo.charge, run id run-big, 10,500 item\\(s\\); "
                + "if it stops, go on with: redrive batch resume (\\d+)").matcher(run.out());
        assertThat(started.find()).as(run.out().lines().limit(3).toList().toString()).isTrue();
        String id = started.group(1);
        assertThat(run.out()).contains("batch " + id + " DONE: 10,500/10,500 (100%) taken: 10,500 decided, 0 blocked, 0 failed");
        // 10,500 items are a progress line on stderr (a line at each tenth without a terminal) and a line each in
        // --out's file, not 10,500 lines on the terminal.
        assertThat(run.out().lines().filter(line -> line.contains(": DONE redrive command "))).isEmpty();
        assertThat(run.err().lines().filter(line -> line.contains(" of 10,500 · "))).hasSizeBetween(2, 10)
                .last().asString().startsWith("[########################] 10,500 of 10,500 · ");
        assertThat(Files.readAllLines(items).stream().filter(line -> line.contains(": DONE redrive command ")))
                .hasSize(ENTRIES);
        assertThat(ns.database().jdbc().queryLong("SELECT count(DISTINCT operation_id) FROM redrive_commands"))
                .isEqualTo(ENTRIES);
        assertThat(ns.database().jdbc().queryLong("SELECT count(*) FROM audit_log WHERE action = 'REDRIVE'"))
                .isEqualTo(ENTRIES);
        assertThat(ns.redis().sync().xlen(ns.redis().keys().dispatch())).isEqualTo(ENTRIES);

        CliRun list = CliRun.in(ns, "redrive", "--batches");
        assertThat(list.exit()).isZero();
        assertThat(list.out()).contains("BATCH", "PROGRESS").containsPattern(id + "\\s+DONE\\s+REDRIVE\\s+10,500/10,500 \\(100%\\)")
                .contains("1 batch(es)");
        JsonNode json = TriageJson.parse(CliRun.in(ns, "redrive", "--batches", "--json").out());
        assertThat(json.get(0).get("id").asText()).isEqualTo(id);
        assertThat(json.get(0).get("state").asText()).isEqualTo("DONE");
        assertThat(json.get(0).get("succeeded").asLong()).isEqualTo(ENTRIES);
        assertThat(json.get(0).get("db_login").asText()).isNotBlank();

        CliRun again = CliRun.in(ns, "redrive", "--resume", id);
        assertThat(again.exit()).isEqualTo(ExitCode.BLOCKED);
        assertThat(again.err().strip()).isEqualTo("batch " + id + " is done (10500 items taken): nothing to resume");
    }

    @Test
    void aGroupOrAFilterWithoutAnOpenEntry_isRefusedInOneLine_andRecordsNoBatch() {
        long batchesBefore = ns.database().jdbc().queryLong("SELECT count(*) FROM redrive_batches");

        CliRun group = CliRun.in(ns, "redrive", "--group", "nosuchfp", "--reason", "typo", "--operator", "alice");
        CliRun filter = CliRun.in(ns, "redrive", "--run", "nosuchrun", "--reason", "typo", "--operator", "alice");
        CliRun dryRun = CliRun.in(ns, "redrive", "--group", "nosuchfp", "--reason", "typo", "--dry-run");

        assertThat(group.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(group.out()).isEmpty();
        assertThat(group.err().strip()).isEqualTo("redrive: no open entries in group nosuchfp: nothing to redrive; "
                + "redrive dlq groups lists the groups and their open entries (see redrive redrive --help)");
        assertThat(filter.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(filter.err().strip()).isEqualTo("redrive: no open entry matches run id nosuchrun: nothing to "
                + "redrive; redrive dlq list with the same filters shows what they match (see redrive redrive --help)");
        assertThat(dryRun.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(dryRun.err()).contains("no open entries in group nosuchfp");
        assertThat(ns.database().jdbc().queryLong("SELECT count(*) FROM redrive_batches")).isEqualTo(batchesBefore);
    }

    @Test
    void aBatchThatDoesNotExist_orOptionsThatDoNotGoTogether_areBadInputInOneLine() {
        CliRun unknown = CliRun.in(ns, "redrive", "--resume", "999999");
        assertThat(unknown.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(unknown.err()).contains("no batch 999999; redrive batch list shows them");

        CliRun mixed = CliRun.in(ns, "redrive", "--batches", "--reason", "why");
        assertThat(mixed.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(mixed.err()).contains("--batches and --resume BATCH take no operations, group, filter, --reason, "
                + "--operator, --rate, --schema-version or --dry-run: a batch keeps its own");
        CliRun renamed = CliRun.in(ns, "redrive", "--resume", "1", "--operator", "bob");
        assertThat(renamed.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(renamed.err()).contains("recorded under the name that started it");

        CliRun noReason = CliRun.in(ns, "redrive", "--group", "fp-big");
        assertThat(noReason.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(noReason.err()).contains("a redrive needs --reason TEXT");
    }
}
