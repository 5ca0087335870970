package dev.redrive.cli;

import dev.redrive.model.FailureClass;
import dev.redrive.model.SideEffectState;
import dev.redrive.store.Database;
import dev.redrive.testing.TestNamespace;
import dev.redrive.testing.DatabaseLogin;
import dev.redrive.triage.DeadLetterFixture;
import dev.redrive.triage.DeadLetterFixture.Created;
import dev.redrive.triage.json.TriageJson;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** Operator input as people type it, and the exit code and the one line every kind of failure gives. */
class CommandLineInputTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static DeadLetterFixture fixture;

    @BeforeAll
    static void entries() {
        fixture = DeadLetterFixture.withChargeTool(ns.database());
    }

    record Run(int exit, String out, String err) {
        /** stderr holds exactly one line. */
        String errLine() {
            assertThat(err).endsWith(System.lineSeparator());
            assertThat(err.strip()).doesNotContain("\n");
            return err.strip();
        }
    }

    private static Run run(String... args) {
        CommandLine cli = RedriveCommand.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(CliRun.connection(ns, all));
        int exit = cli.execute(all.toArray(String[]::new));
        return new Run(exit, out.toString(), err.toString());
    }

    private static List<String> operationIds(Run listed) {
        assertThat(listed.exit()).as(listed.err()).isZero();
        return TriageJson.parse(listed.out()).path("rows").findValuesAsText("operation_id");
    }

    @Test
    void aBadFromValue_printsOneLineNamingTheExpectedForms_andExitsTwo() {
        Run bad = run("dlq", "list", "--from", "yesterday", "-n", ns.name());

        assertThat(bad.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(bad.out()).isEmpty();
        assertThat(bad.errLine()).isEqualTo("list: Invalid value for option '--from': " + InstantInput.EXPECTED
                + ", got 'yesterday' (see redrive dlq list --help)");
    }

    @Test
    void aLookupThatIsNoHttpUrl_printsOneLineNamingTheOption_andExitsTwo() {
        for (String notAUrl : List.of("notaurl", "ftp://psp.example/effects/", "http://bad host/", "http:psp/effects")) {
            Run bad = run("reconcile", "run:node:0", "--lookup", notAUrl, "-n", ns.name());

            assertThat(bad.exit()).isEqualTo(ExitCode.USAGE);
            assertThat(bad.errLine()).isEqualTo("reconcile: Invalid value for option '--lookup': expected an http:// or "
                    + "https:// URL, got '" + notAUrl + "' (see redrive reconcile --help)");
        }
    }

    @Test
    void aFileThatCannotBeReadOrWritten_saysWhy_andAnUnwritableOutRecordsNoBatch() {
        Created entry = fixture.deadLettered("run-input-files", "charge").create();
        long batches = ns.database().jdbc().queryLong("SELECT count(*) FROM redrive_batches");

        Run out = run("redrive", "--run", "run-input-files", "--reason", "r", "--out", "/nonexistent-dir/items.txt",
                "-n", ns.name());
        Run payload = run("redrive", entry.operationId(), "--payload-file", "/nonexistent-dir/payload.json",
                "--reason", "r", "-n", ns.name());
        Run report = run("report", entry.operationId(), "--format", "md", "--out", "/nonexistent-dir/report.md",
                "-n", ns.name());

        assertThat(out.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(out.errLine()).startsWith("redrive: --out /nonexistent-dir/items.txt cannot be written: no such "
                + "folder; expected a file in a folder you may write to");
        assertThat(out.out()).isEmpty();
        assertThat(ns.database().jdbc().queryLong("SELECT count(*) FROM redrive_batches")).isEqualTo(batches);
        assertThat(payload.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(payload.errLine()).startsWith("redrive: cannot read --payload-file /nonexistent-dir/payload.json: "
                + "no such file; expected a readable file holding one JSON object");
        assertThat(report.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(report.errLine()).startsWith("report: cannot write /nonexistent-dir/report.md: no such folder");
    }

    @Test
    void aBadConnectionValueTypedAsAnOption_isNamedAsTyped() {
        Run url = run("dlq", "list", "--pg-url", "x", "-n", ns.name());
        Run namespace = run("dlq", "list", "-n", "Bad-NS!");

        assertThat(url.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(url.errLine()).startsWith("list: --pg-url must be a PostgreSQL JDBC URL (jdbc:postgresql://host:port/db)");
        assertThat(namespace.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(namespace.errLine()).startsWith("list: --namespace must match [a-z][a-z0-9_]{0,47}");
    }

    @Test
    void aNumberThatIsNone_saysWhatKindOfNumberWasExpected() {
        Run limit = run("dlq", "list", "--limit", "abc", "-n", ns.name());
        Run rate = run("redrive", "--group", "fp", "--reason", "r", "--rate", "fast", "-n", ns.name());

        assertThat(limit.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(limit.errLine()).isEqualTo("list: Invalid value for option '--limit': expected a whole number, got "
                + "'abc' (see redrive dlq list --help)");
        assertThat(rate.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(rate.errLine()).startsWith("redrive: Invalid value for option '--rate': expected a number such as "
                + "2 or 0.5, got 'fast'");
        for (String notANumber : List.of("NaN", "Infinity", "0x1p3", "2d")) {
            assertThat(run("redrive", "--group", "fp", "--reason", "r", "--rate", notANumber, "-n", ns.name()).errLine())
                    .contains("expected a number such as 2 or 0.5, got '" + notANumber + "'");
        }
    }

    @Test
    void aRefusedBatch_leavesTheOutFileOfAnEarlierRunAsItWas_andCreatesNone(@TempDir Path dir) throws Exception {
        Path earlier = Files.writeString(dir.resolve("items.txt"), "the earlier run's lines\n");
        Path fresh = dir.resolve("fresh.txt");

        Run misspelt = run("redrive", "--group", "no-such-fp", "--reason", "r", "--out", earlier.toString(), "-n", ns.name());
        Run again = run("redrive", "--group", "no-such-fp", "--reason", "r", "--out", fresh.toString(), "-n", ns.name());

        assertThat(misspelt.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(again.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(Files.readString(earlier)).isEqualTo("the earlier run's lines\n");
        assertThat(fresh).doesNotExist();
    }

    @Test
    void fromAndTo_takeATimeBeforeNow_andALocalDate() {
        Instant now = Instant.now();
        Created recent = fixture.deadLettered("run-input-time", "recent").enteredAt(now.minus(Duration.ofMinutes(10))).create();
        Created earlier = fixture.deadLettered("run-input-time", "earlier").enteredAt(now.minus(Duration.ofHours(3))).create();
        Created longAgo = fixture.deadLettered("run-input-time", "long-ago").enteredAt(Instant.parse("2020-06-15T12:00:00Z")).create();

        assertThat(operationIds(run("dlq", "list", "--run", "run-input-time", "--from", "-1h", "--json", "-n", ns.name())))
                .containsExactly(recent.operationId());
        assertThat(operationIds(run("dlq", "list", "--run", "run-input-time", "--from=-4h", "--to", "-1h", "--json", "-n", ns.name())))
                .containsExactly(earlier.operationId());
        assertThat(operationIds(run("dlq", "list", "--run", "run-input-time", "--from", "2020-06-14", "--to", "2020-06-17 00:00",
                "--json", "-n", ns.name()))).containsExactly(longAgo.operationId());
        assertThat(run("dlq", "groups", "--run", "run-input-time", "--from", "-7d", "-n", ns.name()).exit()).isZero();
    }

    @Test
    void enumValues_areTakenInAnyCase() {
        Created transientFailure = fixture.deadLettered("run-input-case", "transient").create();
        fixture.deadLettered("run-input-case", "uncertain").errorClass(FailureClass.UNKNOWN_SIDE_EFFECT)
                .sideEffect(SideEffectState.POSSIBLE).create();

        assertThat(operationIds(run("dlq", "list", "--run", "run-input-case", "--class", "transient", "--state", "open",
                "--side-effect", "None", "--json", "-n", ns.name()))).containsExactly(transientFailure.operationId());
    }

    @Test
    void connectionOptions_goBeforeTheCommandOrAfterIt_andAfterItWins() {
        Created entry = fixture.deadLettered("run-input-ns", "charge").create();
        String elsewhere = neverMigratedNamespace();

        assertThat(operationIds(run("-n", ns.name(), "dlq", "list", "--run", "run-input-ns", "--json")))
                .containsExactly(entry.operationId());
        assertThat(operationIds(run("--namespace", elsewhere, "dlq", "list", "--run", "run-input-ns", "--json", "-n", ns.name())))
                .containsExactly(entry.operationId());
        Run afterWins = run("-n", ns.name(), "dlq", "list", "-n", elsewhere);
        assertThat(afterWins.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(afterWins.errLine()).contains("namespace " + elsewhere + " ");
        assertThat(run("--pg-user", ns.config().pgUser(), "-n", ns.name(), "op", "show", entry.operationId()).out())
                .contains(entry.operationId());
    }

    @Test
    void anUnknownOption_printsOneLine_withoutTheUsage_andExitsTwo() {
        Run misspelt = run("dlq", "list", "--frm", "-1h", "-n", ns.name());
        Run unknownCommand = run("dlqs");

        assertThat(misspelt.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(misspelt.errLine()).isEqualTo("list: Unknown options: '--frm', '-1h'; did you mean --from? (see redrive dlq list --help)");
        assertThat(unknownCommand.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(unknownCommand.errLine()).startsWith("redrive: ").contains("'dlqs'", "did you mean dlq?").endsWith("(see redrive --help)");
        assertThat(misspelt.out() + unknownCommand.out() + unknownCommand.err()).doesNotContain("Usage:");
    }

    @Test
    void aCommandsOwnCheck_endsWithTheHelpHint_asPicocliOnesDo_butAnIdThatNamesNothingDoesNot() {
        Run noReason = run("redrive", "--group", "fp-x", "-n", ns.name());
        Run badDuration = run("policy", "four-eyes", "on", "--expire-after", "soon", "--operator", "alice", "-n", ns.name());
        Run unknown = run("op", "show", "nope:nothing:0", "-n", ns.name());

        assertThat(noReason.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(noReason.errLine()).isEqualTo("redrive: a redrive needs --reason TEXT: why (kept in the command and "
                + "the audit log) (see redrive redrive --help)");
        assertThat(badDuration.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(badDuration.errLine()).isEqualTo("four-eyes: --expire-after must be a positive duration such as 30m, "
                + "24h, 7d or PT24H, got 'soon' (see redrive policy four-eyes --help)");
        assertThat(unknown.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(unknown.errLine()).isEqualTo("show: no operation 'nope:nothing:0' in namespace " + ns.name());
    }

    @Test
    void aMissingRequiredOption_printsOneLine_andExitsTwo() {
        Run missing = run("discard", "a:b:0", "-n", ns.name());

        assertThat(missing.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(missing.errLine()).isEqualTo("discard: Missing required option: '--reason=TEXT' (see redrive discard --help)");
    }

    @Test
    void aNeverMigratedNamespace_saysRunMigrate_andExitsTwo_andMigrateThenCreatesIt() {
        String fresh = neverMigratedNamespace();
        String expected = "namespace " + fresh + " has no Redrive schema; run `redrive migrate -n " + fresh + "`";
        try {
            Run list = run("dlq", "list", "-n", fresh);
            Run discard = run("-n", fresh, "discard", "a:b:0", "--reason", "duplicate");

            assertThat(list.exit()).isEqualTo(ExitCode.USAGE);
            assertThat(list.errLine()).isEqualTo("list: " + expected);
            assertThat(discard.exit()).isEqualTo(ExitCode.USAGE);
            assertThat(discard.errLine()).isEqualTo("discard: " + expected);

            Run migrate = run("migrate", "-n", fresh);
            assertThat(migrate.exit()).as(migrate.err()).isZero();
            assertThat(migrate.out()).startsWith("schema " + fresh + ": ");
            assertThat(run("dlq", "list", "-n", fresh).exit()).isZero();
        } finally {
            try (Database database = Database.open(ns.config().withNamespace(fresh), 1)) {
                database.dropSchema();
            }
        }
    }

    @Test
    void aViewersDecisions_areRefused_exitFive_andNothingChanges() {
        Created op = fixture.deadLettered("run-input-viewer", "charge").create();
        try (DatabaseLogin viewer = DatabaseLogin.viewer(ns, "vera")) {
            String[] asViewer = {"--pg-user", viewer.login(), "--pg-password-file", CliRun.passwordFile(viewer.config().pgPassword()), "-n", ns.name()};

            Run discard = run(concat(new String[]{"discard", op.operationId(), "--reason", "duplicate", "--operator", "vera"}, asViewer));
            Run redrive = run(concat(new String[]{"redrive", op.operationId(), "--reason", "ledger back", "--operator", "vera"}, asViewer));
            Run reconcile = run(concat(new String[]{"reconcile", op.operationId(), "--not-applied", "--evidence", "no charge"}, asViewer));
            Run look = run(concat(new String[]{"dlq", "list", "--run", "run-input-viewer", "--json"}, asViewer));

            assertThat(discard.exit()).isEqualTo(ExitCode.REFUSED);
            assertThat(discard.out()).contains("REFUSED by the database: read-only: role " + viewer.login() + " is a viewer");
            assertThat(redrive.exit()).isEqualTo(ExitCode.REFUSED);
            assertThat(reconcile.exit()).isEqualTo(ExitCode.REFUSED);
            assertThat(reconcile.errLine()).startsWith("reconcile: refused by the database: read-only: role " + viewer.login());
            assertThat(discard.out() + discard.err() + reconcile.err()).doesNotContain("not reachable");
            assertThat(operationIds(look)).containsExactly(op.operationId());
        }
        assertThat(ns.database().jdbc().queryOne("SELECT decision_state FROM dlq_entries WHERE id = ?",
                row -> row.getString(1), op.dlqEntryId())).contains("OPEN");
    }

    @Test
    void aLoginThatDoesNotExist_isRefused_notUnreachable_exitFive() {
        Run refused = run("--pg-user", "no_such_login_" + ns.name(), "dlq", "list", "-n", ns.name());

        assertThat(refused.exit()).isEqualTo(ExitCode.REFUSED);
        assertThat(refused.errLine()).startsWith("list: PostgreSQL at ").contains("refused the login").doesNotContain("not reachable");
    }

    @Test
    void aLoginOutsideTheViewerRole_isRefused_notToldToMigrate() {
        String outsider = ns.name() + "_outsider";
        ns.database().jdbc().update("CREATE ROLE \"" + outsider + "\" LOGIN PASSWORD 'outsider-pw'");
        try {
            Run refused = run("--pg-user", outsider, "--pg-password-file", CliRun.passwordFile("outsider-pw"), "-n", ns.name(), "dlq", "list");

            assertThat(refused.exit()).isEqualTo(ExitCode.REFUSED);
            assertThat(refused.errLine()).isEqualTo("list: refused by the database: user " + outsider + " may not use namespace "
                    + ns.name() + " (no USAGE on its schema; a login that may look is a member of " + ns.name() + "_viewer)");
        } finally {
            ns.database().jdbc().update("DROP ROLE IF EXISTS \"" + outsider + "\"");
        }
    }

    @Test
    void anUnreachableServer_exitsFour() {
        Run unreachable = run("--pg-url", "jdbc:postgresql://127.0.0.1:1/postgres", "dlq", "list", "-n", ns.name());

        assertThat(unreachable.exit()).isEqualTo(ExitCode.UNAVAILABLE);
        assertThat(unreachable.errLine()).startsWith("list: PostgreSQL at jdbc:postgresql://127.0.0.1:1/postgres").contains("is not reachable");
    }

    @Test
    void theTopCommandsHelp_endsWithTheExitCodes() {
        Run help = run("--help");

        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("Exit codes:", "  2   bad input", "  3   blocked or conflict", "  4   PostgreSQL or Redis",
                "  5   refused by the database", "  7   stopped: a batch was stopped", "-n, --namespace=NS");
    }

    private static String neverMigratedNamespace() {
        return "t_never_" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x100000, 0xFFFFFF)).toLowerCase(Locale.ROOT);
    }

    private static String[] concat(String[] first, String... rest) {
        String[] all = new String[first.length + rest.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(rest, 0, all, first.length, rest.length);
        return all;
    }
}
