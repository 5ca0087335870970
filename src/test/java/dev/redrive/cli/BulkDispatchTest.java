package dev.redrive.cli;

import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code dispatch --file}: many dispatches recorded and published in bulk, a bad line dispatching nothing. */
class BulkDispatchTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @TempDir
    Path dir;

    private static CliRun run(String... args) {
        return CliRun.in(ns, args);
    }

    private static long count(String sql, Object... params) {
        return ns.database().jdbc().queryLong(sql, params);
    }

    private Path file(String name, List<String> lines) throws IOException {
        return Files.write(dir.resolve(name), lines, StandardCharsets.UTF_8);
    }

    @Test
    void aFileOfDispatches_isRecordedAndPublishedAcrossChunks_andAgainIsARepeat() throws IOException {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 2500; i++) {
            lines.add("{\"run\":\"bulk-" + (i % 7) + "\",\"node\":\"n" + i + "\",\"tool\":\"demo.charge\",\"payload\":"
                    + "{\"amount\":" + i + "},\"trace_id\":\"t-" + i + "\"}");
        }
        lines.add("");
        Path dispatches = file("bulk.jsonl", lines);

        CliRun first = run("dispatch", "--file", dispatches.toString());

        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(first.out().strip()).isEqualTo("dispatched 2500 operation(s) from " + dispatches
                + ": 2500 new, 0 already dispatched (published again), 0 conflict(s) not published");
        assertThat(count("SELECT count(*) FROM operations WHERE status = 'PENDING' AND run_id LIKE 'bulk-%'"))
                .isEqualTo(2500);
        assertThat(count("SELECT count(*) FROM runs WHERE run_id LIKE 'bulk-%'")).isEqualTo(7);
        assertThat(ns.database().jdbc().queryOne("SELECT payload::text || ' ' || trace_id FROM operations "
                + "WHERE operation_id = 'bulk-6:n1000:0'", row -> row.getString(1))).contains("{\"amount\": 1000} t-1000");
        assertThat(ns.redis().sync().xlen(ns.redis().keys().dispatch())).isEqualTo(2500);

        CliRun again = run("dispatch", "--file", dispatches.toString());
        assertThat(again.exit()).isZero();
        assertThat(again.out()).contains("0 new, 2500 already dispatched (published again), 0 conflict(s)");
    }

    @Test
    void aConflictingLine_isNamedAndNotPublished_theOthersAre() throws IOException {
        assertThat(run("dispatch", "--run", "bulk-conflict", "--node", "a", "--tool", "demo.charge", "--payload",
                "{\"amount\":10}").exit()).isZero();
        long before = ns.redis().sync().xlen(ns.redis().keys().dispatch());
        Path dispatches = file("conflict.jsonl", List.of(
                "{\"run\":\"bulk-conflict\",\"node\":\"b\",\"tool\":\"demo.charge\",\"payload\":{\"amount\":1}}",
                "{\"run\":\"bulk-conflict\",\"node\":\"a\",\"tool\":\"demo.charge\",\"payload\":{\"amount\":99}}"));

        CliRun outcome = run("dispatch", "--file", dispatches.toString());

        assertThat(outcome.exit()).isEqualTo(RedriveCommand.EXIT_BLOCKED);
        assertThat(outcome.err().strip()).startsWith("dispatch: " + dispatches + " line 2: conflict: ")
                .doesNotContain("\n");
        assertThat(outcome.out()).contains("1 new, 0 already dispatched (published again), 1 conflict(s) not published");
        assertThat(ns.redis().sync().xlen(ns.redis().keys().dispatch())).isEqualTo(before + 1);
        assertThat(ns.database().jdbc().queryOne("SELECT payload->>'amount' FROM operations "
                + "WHERE operation_id = 'bulk-conflict:a:0'", row -> row.getString(1))).contains("10");
    }

    @Test
    void aBadLine_isOneLineNamingItAndDispatchesNothing() throws IOException {
        Path dispatches = file("bad.jsonl", List.of(
                "{\"run\":\"bulk-bad\",\"node\":\"a\",\"tool\":\"demo.charge\",\"payload\":{\"amount\":1}}",
                "{\"run\":\"bulk-bad\",\"node\":\"b\",\"tool\":\"demo.charge\",\"paylod\":{\"amount\":2}}"));

        CliRun outcome = run("dispatch", "--file", dispatches.toString());

        assertThat(outcome.exit()).isEqualTo(RedriveCommand.EXIT_USAGE);
        assertThat(outcome.err().strip()).startsWith("dispatch: " + dispatches + " line 2: unknown field 'paylod'; "
                + "expected run, node, tool, payload").doesNotContain("\n");
        assertThat(count("SELECT count(*) FROM operations WHERE run_id = 'bulk-bad'")).isZero();

        Path notAnObject = file("string.jsonl", List.of(
                "{\"run\":\"bulk-bad\",\"node\":\"c\",\"tool\":\"demo.charge\",\"payload\":\"{}\"}"));
        assertThat(run("dispatch", "--file", notAnObject.toString()).err())
                .contains("line 1: payload must be a JSON object, got string");
        assertThat(run("dispatch", "--file", dir.resolve("missing.jsonl").toString(), "--run", "x").exit())
                .as("--file with single-dispatch options").isEqualTo(RedriveCommand.EXIT_USAGE);
    }

    @Test
    void dashReadsStdin() {
        InputStream stdin = System.in;
        System.setIn(new ByteArrayInputStream(
                "{\"run\":\"bulk-stdin\",\"node\":\"a\",\"tool\":\"demo.charge\",\"payload\":{}}\n"
                        .getBytes(StandardCharsets.UTF_8)));
        try {
            CliRun outcome = run("dispatch", "--file", "-");
            assertThat(outcome.exit()).as(outcome.err()).isZero();
            assertThat(outcome.out()).startsWith("dispatched 1 operation(s) from stdin: 1 new");
        } finally {
            System.setIn(stdin);
        }
        assertThat(count("SELECT count(*) FROM operations WHERE run_id = 'bulk-stdin'")).isEqualTo(1);
    }
}
