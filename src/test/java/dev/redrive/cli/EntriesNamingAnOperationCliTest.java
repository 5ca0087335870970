package dev.redrive.cli;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.MessageDeadLetters;
import dev.redrive.triage.MessageDeadLetters.RefusesEveryPayload;
import dev.redrive.worker.Worker;
import dev.redrive.worker.client.WorkerClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
/**
 * An operation dead-lettered by its tool, then a foreign dispatch reusing its id with another payload, dead-lettered
 * by the worker as an {@code idempotency_conflict}: the newer open entry names the operation but is not its own.
 * Whatever is addressed by the operation id decides the operation's own entry and leaves the conflict open.
 */
class EntriesNamingAnOperationCliTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static Dead discarded;
    private static Dead grouped;
    private static long ghost;

    /** An operation's own entry and the newer conflict entry that names it. */
    record Dead(String operationId, long ownEntry, long conflictEntry) {
    }

    @BeforeAll
    static void aWorkerDeadLettersTwoOperations_thenTheirConflictingForeignDispatches() {
        MessageDeadLetters letters = new MessageDeadLetters(ns);
        Worker worker = letters.startWorker(new RefusesEveryPayload("test.refuses-discard"),
                new RefusesEveryPayload("test.refuses-group"));
        try {
            discarded = deadLetteredThenConflicted(letters, new OperationId("naming", "discard", 0), "test.refuses-discard");
            grouped = deadLetteredThenConflicted(letters, new OperationId("naming", "group", 0), "test.refuses-group");
            ghost = letters.awaitEntry(letters.publishWithoutTool(new OperationId("naming", "ghost", 0), "{}", "trace-ghost"));
        } finally {
            worker.shutdown().join();
        }
    }

    private static Dead deadLetteredThenConflicted(MessageDeadLetters letters, OperationId id, String tool) {
        WorkerClient client = letters.client();
        long own = letters.awaitEntry(client.dispatch(
                client.newDispatch(id, tool, "1", "{\"amount\":-1}", "trace-" + id.nodeId(), null, null)).entryId());
        DispatchEnvelope foreign = client.newDispatch(id, tool, "1", "{\"amount\":-2}", "trace-foreign", null, null);
        long conflict = letters.awaitEntry(client.publish(foreign));
        assertThat(query("SELECT error_code || '/' || coalesce(operation_id, '-') FROM dlq_entries WHERE id = ?", conflict))
                .isEqualTo("idempotency_conflict/" + id.value());
        return new Dead(id.value(), own, conflict);
    }

    @Test
    void reconcileAndDiscardByOperationId_takeTheOperationsOwnEntry_andLeaveTheNewerConflictEntryAsItWas() {
        CliRun reconcile = run("reconcile", discarded.operationId(), "--not-applied", "--evidence", "no charge at the PSP",
                "--operator", "alice");
        assertThat(reconcile.exit()).as(reconcile.err()).isZero();
        assertThat(query("SELECT side_effect || '/' || version FROM dlq_entries WHERE id = ?", discarded.ownEntry()))
                .isEqualTo("NOT_APPLIED/1");
        assertThat(query("SELECT side_effect || '/' || version FROM dlq_entries WHERE id = ?", discarded.conflictEntry()))
                .isEqualTo("NONE/0");

        CliRun discard = run("discard", discarded.operationId(), "--reason", "customer withdrew", "--operator", "alice");

        assertThat(discard.exit()).as(discard.err()).isZero();
        assertThat(discard.out()).contains("entry " + discarded.ownEntry() + " discarded by alice");
        assertThat(state(discarded.ownEntry())).isEqualTo("DISCARDED");
        assertThat(state(discarded.conflictEntry())).isEqualTo("OPEN");
        assertThat(query("SELECT status FROM operations WHERE operation_id = ?", discarded.operationId())).isEqualTo("DISCARDED");
        assertThat(run("op", "show", discarded.operationId()).out())
                .as("the operation shows its own entry, not the one that names it")
                .contains("dlq entry " + discarded.ownEntry() + " ").doesNotContain("dlq entry " + discarded.conflictEntry() + " ");

        CliRun again = run("discard", discarded.operationId(), "--reason", "customer withdrew", "--operator", "alice");
        assertThat(again.exit()).isEqualTo(ExitCode.BLOCKED);
        assertThat(again.out().lines().findFirst().orElseThrow()).startsWith(discarded.operationId() + ": ALREADY_DECIDED "
                + "by alice").endsWith("; open entries that only name it: " + discarded.conflictEntry()
                + "; decide them with --entry ID");

        CliRun conflict = run("discard", "--entry", String.valueOf(discarded.conflictEntry()), "--reason", "duplicate publish",
                "--operator", "alice");
        assertThat(conflict.exit()).as(conflict.err()).isZero();
        assertThat(state(discarded.conflictEntry())).isEqualTo("DISCARDED");
    }

    @Test
    void groupRedrive_takesTheOperationsOwnEntry_andNeverAnEntryThatOnlyNamesIt() {
        CliRun conflictGroup = run("redrive", "--group", fingerprint(grouped.conflictEntry()), "--reason", "retry",
                "--operator", "bob");

        // Nothing a batch could take: refused in one line naming the entry, and no batch is recorded.
        assertThat(conflictGroup.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(conflictGroup.err()).contains("has no operation of its own (entry " + grouped.conflictEntry()
                + "): nothing to redrive as a batch; decide it with --entry ID");
        assertThat(state(grouped.conflictEntry())).isEqualTo("OPEN");
        assertThat(query("SELECT status FROM operations WHERE operation_id = ?", grouped.operationId())).isEqualTo("DEAD_LETTERED");
        CliRun dryRun = run("redrive", "--group", fingerprint(grouped.conflictEntry()), "--reason", "retry", "--dry-run");
        assertThat(dryRun.exit()).as("a dry run says what the real run would").isEqualTo(ExitCode.USAGE);
        assertThat(dryRun.err()).isEqualTo(conflictGroup.err());

        CliRun ownGroup = run("redrive", "--group", fingerprint(grouped.ownEntry()), "--reason", "amount fixed upstream",
                "--operator", "bob");

        assertThat(ownGroup.exit()).as(ownGroup.out() + ownGroup.err()).isZero();
        assertThat(ownGroup.out()).contains("1 item(s): 1 done");
        assertThat(state(grouped.ownEntry())).isEqualTo("REDRIVEN");
        assertThat(state(grouped.conflictEntry())).isEqualTo("OPEN");
        assertThat(query("SELECT dlq_entry_id::text FROM redrive_commands WHERE operation_id = ?", grouped.operationId()))
                .isEqualTo(String.valueOf(grouped.ownEntry()));
    }

    @Test
    void resolveAnOperationNoneWasRecordedFor_pointsAtTheEntryThatNamesIt() {
        CliRun resolve = run("resolve", "naming:ghost:0", "--reason", "handled", "--operator", "carol");

        assertThat(resolve.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(resolve.err().strip()).isEqualTo("resolve: no operation 'naming:ghost:0' in namespace " + ns.name() + "; open "
                + "entries that only name it: " + ghost + "; decide them with --entry ID");
        assertThat(state(ghost)).isEqualTo("OPEN");
        CliRun show = run("op", "show", "naming:ghost:0");
        assertThat(show.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(show.err().strip()).isEqualTo("show: no operation 'naming:ghost:0' in namespace " + ns.name() + "; open "
                + "entries that only name it: " + ghost + "; show them with --entry ID");
    }

    private static CliRun run(String... args) {
        return CliRun.in(ns, args);
    }

    private static String state(long entry) {
        return query("SELECT decision_state FROM dlq_entries WHERE id = ?", entry);
    }

    private static String fingerprint(long entry) {
        return query("SELECT error_fingerprint FROM dlq_entries WHERE id = ?", entry);
    }

    private static String query(String sql, Object... params) {
        return ns.database().jdbc().queryOne(sql, row -> row.getString(1), params).orElse(null);
    }
}
