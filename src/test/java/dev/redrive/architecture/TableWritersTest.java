package dev.redrive.architecture;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One writer per concept: every table the migrations create is mapped to the classes allowed to INSERT, UPDATE or
 * DELETE it, and the sources are held to that map both ways (no write outside it, no entry that writes nothing). SQL
 * lives in string literals, hence a scan of the sources rather than of the bytecode.
 */
class TableWritersTest {
    private static final Path SOURCES = Path.of("src/main/java");
    private static final Path MIGRATIONS = Path.of("resources/dev/redrive/db");
    private static final Pattern WRITE = Pattern.compile(
            "\\b(INSERT\\s+INTO|UPDATE|DELETE\\s+FROM)\\s+(?:[\\w%]+\\.)?(\\w+)", Pattern.CASE_INSENSITIVE);
    private static final Pattern CREATE = Pattern.compile("CREATE TABLE (?:IF NOT EXISTS )?(\\w+)",
            Pattern.CASE_INSENSITIVE);

    private static final String OPERATIONS = "store/operation/";

    /**
     * table -> "STATEMENT class" pairs. Where a table has more than one writer, each owns a different part of its life:
     * an operation is created by the registry (a correction's new operation by the decision store), claimed, deferred
     * and discarded by the worker's store, finished by its attempt commits, decided by the decision store, and
     * cancelled with its run by the run store; a DLQ entry is entered by the dead-letter store, decided by the entry
     * decision store, and emptied of its evidence by the purge; a redrive command is issued by its log, moved along by
     * the claim that executes it and settled by the commit of its attempt. Tables without a writer are kept by the
     * database itself (triggers, migrations).
     */
    private static final Map<String, Set<String>> WRITERS = Map.ofEntries(
            entry("approvals", Set.of("INSERT store/approval/ApprovalStore", "UPDATE store/approval/ApprovalStore")),
            entry("attempts", Set.of("INSERT " + OPERATIONS + "AttemptCommits")),
            entry("audit_log", Set.of("INSERT store/audit/AuditLog")),
            entry("decision_requests", Set.of("INSERT triage/request/RequestStore", "UPDATE triage/request/RequestStore")),
            entry("dlq_entries", Set.of("INSERT store/deadletter/DeadLetterStore",
                    "UPDATE store/deadletter/EntryDecisionStore", "UPDATE store/deadletter/EvidencePurge")),
            entry("dlq_summary", Set.of()),
            entry("evidence_purges", Set.of("INSERT store/deadletter/EvidencePurge",
                    "UPDATE store/deadletter/EvidencePurge")),
            entry("four_eyes_policy", Set.of("UPDATE triage/request/PolicyStore")),
            entry("operations", Set.of("INSERT " + OPERATIONS + "OperationRegistry",
                    "INSERT " + OPERATIONS + "OperationDecisionStore", "UPDATE " + OPERATIONS + "OperationStore",
                    "UPDATE " + OPERATIONS + "AttemptCommits",
                    "UPDATE " + OPERATIONS + "OperationDecisionStore", "UPDATE " + OPERATIONS + "RunStore")),
            entry("reconciliations", Set.of("INSERT store/reconciliation/ReconciliationLog")),
            entry("redrive_batch_items", Set.of("INSERT triage/decision/durable/BatchStore")),
            entry("redrive_batches", Set.of("INSERT triage/decision/durable/BatchStore", "UPDATE triage/decision/durable/BatchStore")),
            entry("redrive_commands", Set.of("INSERT store/command/RedriveCommandLog",
                    "UPDATE " + OPERATIONS + "OperationStore", "UPDATE " + OPERATIONS + "AttemptCommits")),
            entry("retention_policy", Set.of("UPDATE store/deadletter/RetentionPolicyStore")),
            entry("runs", Set.of("INSERT " + OPERATIONS + "OperationRegistry", "UPDATE " + OPERATIONS + "RunStore")),
            entry("tool_schemas", Set.of("INSERT store/tool/ToolSchemaStore", "UPDATE store/tool/ToolSchemaStore")),
            entry("viewer_masked_columns", Set.of()),
            entry("demo_tool_calls", Set.of("INSERT demo/tools/DemoToolLedger")),
            entry("demo_tool_effects", Set.of("INSERT demo/tools/DemoToolLedger")),
            entry("demo_tool_lookups", Set.of("INSERT demo/tools/DemoToolLedger")),
            entry("demo_tool_servers", Set.of("INSERT demo/tools/DemoToolLedger", "UPDATE demo/tools/DemoToolLedger")));

    /**
     * Synthetic rows for benchmarks, the sandbox and tests, written in bulk by one INSERT ... SELECT each: they record
     * no decision, and a row-at-a-time writer would take minutes for the million entries of a benchmark.
     */
    private static final Set<String> SEEDERS = Set.of("bench/generate/DlqGenerator", "bench/BatchBenchmark",
            "bench/CommitCeiling");

    @Test
    void everyTableTheMigrationsCreate_hasItsWritersNamed() throws IOException {
        Set<String> created = new TreeSet<>();
        try (Stream<Path> files = Files.walk(MIGRATIONS)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".sql")).toList()) {
                Matcher matcher = CREATE.matcher(Files.readString(file));
                while (matcher.find()) {
                    created.add(matcher.group(1).toLowerCase(Locale.ROOT));
                }
            }
        }
        assertThat(created).isNotEmpty();
        assertThat(WRITERS.keySet()).as("tables with their writers named").containsExactlyInAnyOrderElementsOf(created);
    }

    @Test
    void eachTableIsWrittenOnlyByItsWriters_andEachWriterNamedWritesIt() throws IOException {
        Map<String, Set<String>> found = writesInTheSources();
        Set<String> stray = new TreeSet<>();
        found.forEach((table, writes) -> writes.stream()
                .filter(write -> !WRITERS.getOrDefault(table, Set.of()).contains(write))
                .forEach(write -> stray.add(table + ": " + write)));
        Set<String> idle = new TreeSet<>();
        WRITERS.forEach((table, writers) -> writers.stream()
                .filter(writer -> !found.getOrDefault(table, Set.of()).contains(writer))
                .forEach(writer -> idle.add(table + ": " + writer)));

        assertThat(stray).as("writes by a class that is not the table's writer").isEmpty();
        assertThat(idle).as("writers named that no longer write the table").isEmpty();
    }

    /** table -> "STATEMENT class" for every INSERT, UPDATE and DELETE in a string of the product's sources. */
    private static Map<String, Set<String>> writesInTheSources() throws IOException {
        Map<String, Set<String>> found = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String name = SOURCES.resolve("dev/redrive").relativize(file).toString().replace('\\', '/')
                        .replaceFirst("\\.java$", "");
                if (SEEDERS.contains(name)) {
                    continue;
                }
                Matcher matcher = WRITE.matcher(Files.readString(file));
                while (matcher.find()) {
                    String table = matcher.group(2).toLowerCase(Locale.ROOT);
                    if (WRITERS.containsKey(table)) {
                        String statement = matcher.group(1).split("\\s+")[0].toUpperCase(Locale.ROOT);
                        found.computeIfAbsent(table, t -> new TreeSet<>()).add(statement + " " + name);
                    }
                }
            }
        }
        return found;
    }
}
