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
    void aFileWithTheOptionsOfOneDispatch_orOneDispatchMissingSome_isOneLineSayingWhatToGive() {
        CliRun both = run("dispatch", "--file", "dispatches.jsonl", "--run", "x");
        CliRun incomplete = run("dispatch", "--run", "x", "--tool", "demo.charge");

        assertThat(both.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(both.err()).isEqualTo("dispatch: --file takes every dispatch from dispatches.jsonl and cannot go "
                + "with the options of a single dispatch (--run): give --file alone, or --run, --node, --tool and "
                + "--payload without it (see redrive dispatch --help)\n");
        assertThat(incomplete.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(incomplete.err()).isEqualTo("dispatch: a dispatch needs --run, --node, --tool and --payload (or "
                + "--file with many), missing --node, --payload (see redrive dispatch --help)\n");
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

        assertThat(outcome.exit()).isEqualTo(ExitCode.BLOCKED);
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

        assertThat(outcome.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(outcome.err().strip()).startsWith("dispatch: " + dispatches + " line 2: unknown field 'paylod'; "
                + "expected run, node, tool, payload").doesNotContain("\n");
        assertThat(count("SELECT count(*) FROM operations WHERE run_id = 'bulk-bad'")).isZero();

        Path notAnObject = file("string.jsonl", List.of(
                "{\"run\":\"bulk-bad\",\"node\":\"c\",\"tool\":\"demo.charge\",\"payload\":\"{}\"}"));
        assertThat(run("dispatch", "--file", notAnObject.toString()).err())
                .contains("line 1: payload must be a JSON object, got string");
        assertThat(run("dispatch", "--file", dir.resolve("missing.jsonl").toString(), "--run", "x").exit())
                .as("--file with single-dispatch options").isEqualTo(ExitCode.USAGE);
    }

    @Test
    void fileWithASingleDispatchOption_isOneLineNamingBoth_andDispatchesNothing() throws IOException {
        Path dispatches = file("with-run.jsonl", List.of(
                "{\"run\":\"bulk-both\",\"node\":\"c\",\"tool\":\"demo.charge\",\"payload\":{\"amount\":1}}"));
        long before = ns.redis().sync().xlen(ns.redis().keys().dispatch());

        CliRun outcome = run("dispatch", "--file", dispatches.toString(), "--run", "x");

        assertThat(outcome.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(outcome.err().strip()).isEqualTo("dispatch: --file takes every dispatch from " + dispatches
                + " and cannot go with the options of a single dispatch (--run): give --file alone, or --run, --node, "
                + "--tool and --payload without it (see redrive dispatch --help)");
        assertThat(run("dispatch", "--file", dispatches.toString(), "--node", "n", "--tool=t").err())
                .contains("cannot go with the options of a single dispatch (--node, --tool)");
        assertThat(count("SELECT count(*) FROM operations WHERE run_id IN ('bulk-both', 'x')")).isZero();
        assertThat(ns.redis().sync().xlen(ns.redis().keys().dispatch())).isEqualTo(before);
    }

    @Test
    void anOperationTwiceInOneFile_isARepeatWithTheSameParameters_andAConflictWithOthers() throws IOException {
        long before = ns.redis().sync().xlen(ns.redis().keys().dispatch());
        Path dispatches = file("twice.jsonl", List.of(
                "{\"run\":\"bulk-twice\",\"node\":\"a\",\"tool\":\"demo.charge\",\"payload\":{\"amount\":1}}",
                "{\"run\":\"bulk-twice\",\"node\":\"a\",\"tool\":\"demo.charge\",\"payload\":{\"amount\":1}}",
                "{\"run\":\"bulk-twice\",\"node\":\"a\",\"tool\":\"demo.charge\",\"payload\":{\"amount\":2}}"));

        CliRun outcome = run("dispatch", "--file", dispatches.toString());

        assertThat(outcome.exit()).isEqualTo(ExitCode.BLOCKED);
        assertThat(outcome.err().strip()).startsWith("dispatch: " + dispatches + " line 3: conflict: ")
                .doesNotContain("\n");
        assertThat(outcome.out()).contains("1 new, 1 already dispatched (published again), 1 conflict(s) not published");
        assertThat(ns.redis().sync().xlen(ns.redis().keys().dispatch())).as("the conflicting line is not published")
                .isEqualTo(before + 2);
        assertThat(ns.database().jdbc().queryOne("SELECT payload->>'amount' FROM operations "
                + "WHERE operation_id = 'bulk-twice:a:0'", row -> row.getString(1))).contains("1");
    }

    @Test
    void aFieldOfAnotherType_orGivenTwice_isRefusedNamingIt_neverConverted() throws IOException {
        String start = "{\"run\":\"bulk-type\",\"node\":\"a\",\"tool\":\"demo.charge\",\"payload\":{}";
        assertThat(refusal(start + ",\"logical_attempt\":1.5}")).isEqualTo("logical_attempt must be a whole number "
                + "(0 or more), got 1.5; expected " + DispatchFile.FIELDS);
        assertThat(refusal(start + ",\"logical_attempt\":1e2}")).startsWith("logical_attempt must be a whole number");
        assertThat(refusal(start + ",\"logical_attempt\":\"2\"}")).startsWith("logical_attempt must be a whole "
                + "number (0 or more), got \"2\";");
        assertThat(refusal("{\"run\":5,\"node\":\"a\",\"tool\":\"demo.charge\",\"payload\":{}}"))
                .startsWith("run must be a text, got 5;");
        assertThat(refusal(start + ",\"schema_version\":2}")).startsWith("schema_version must be a text, got 2;");
        assertThat(refusal(start + ",\"run\":\"other\"}")).isEqualTo("field 'run' is given twice; expected each "
                + "field once");
        assertThat(refusal("[1, 2]")).startsWith("not a JSON object");
        assertThat(refusal("{\"run\": ")).startsWith("not valid JSON (");
        assertThat(count("SELECT count(*) FROM operations WHERE run_id IN ('bulk-type', '5', 'other')")).isZero();
    }

    @Test
    void aPayloadsNumbers_areRecordedAsWritten_neverRoundedThroughADouble() throws IOException {
        Path dispatches = file("numbers.jsonl", List.of(
                "{\"run\":\"bulk-number\",\"node\":\"a\",\"tool\":\"demo.charge\",\"payload\":"
                        + "{\"fine\":1.000000000000000000001,\"huge\":1e400}}"));

        CliRun outcome = run("dispatch", "--file", dispatches.toString());

        assertThat(outcome.exit()).as(outcome.err()).isZero();
        assertThat(ns.database().jdbc().queryOne("SELECT (payload->>'fine') || ' ' || (payload->'huge' = '1e400') "
                        + "FROM operations WHERE operation_id = 'bulk-number:a:0'", row -> row.getString(1)))
                .contains("1.000000000000000000001 true");
        String start = "{\"run\":\"bulk-number\",\"node\":\"b\",\"tool\":\"demo.charge\",\"payload\":";
        assertThat(refusal(start + "{\"n\":1e2147483648}}")).startsWith("payload holds a number no decimal can "
                + "hold; expected at most 131072 digits before the decimal point");
        assertThat(refusal(start + "{\"n\":1e-16384}}")).startsWith("payload.n is a number out of range");
    }

    @Test
    void redisUnreachable_isWhatTheRunSays_evenOfABadFile_asWhenItConnectedBeforeReading() throws IOException {
        Path good = file("good.jsonl", List.of(
                "{\"run\":\"bulk-no-redis\",\"node\":\"a\",\"tool\":\"demo.charge\",\"payload\":{}}"));
        Path bad = file("bad-no-redis.jsonl", List.of("{\"run\": "));
        String unreachable = "redis://127.0.0.1:1";

        CliRun ofGood = run("dispatch", "--file", good.toString(), "--redis-uri", unreachable);
        CliRun ofBad = run("dispatch", "--file", bad.toString(), "--redis-uri", unreachable);

        assertThat(ofGood.exit()).isNotZero();
        assertThat(ofGood.err()).contains("127.0.0.1:1").hasLineCount(1);
        assertThat(ofBad.exit()).isEqualTo(ofGood.exit());
        assertThat(ofBad.err()).isEqualTo(ofGood.err());
        assertThat(count("SELECT count(*) FROM operations WHERE run_id = 'bulk-no-redis'")).isZero();
    }

    /** The one line a file of this one line is refused with, after "dispatch: FILE line 1: ". */
    private String refusal(String line) throws IOException {
        Path dispatches = file("refused.jsonl", List.of(line));
        CliRun outcome = run("dispatch", "--file", dispatches.toString());
        assertThat(outcome.exit()).as(outcome.out()).isEqualTo(ExitCode.USAGE);
        String prefix = "dispatch: " + dispatches + " line 1: ";
        assertThat(outcome.err()).startsWith(prefix).doesNotContain("\tat ").hasLineCount(1);
        String hint = " (see redrive dispatch --help)";
        assertThat(outcome.err().strip()).endsWith(hint);
        String refusal = outcome.err().strip();
        return refusal.substring(prefix.length(), refusal.length() - hint.length());
    }

    @Test
    void bytesThatAreNotUtf8_areRefused_aByteOrderMarkIsNot_andAFileThatIsNoFileIsNamed() throws IOException {
        byte[] line = "{\"run\":\"bulk-utf8\",\"node\":\"a\",\"tool\":\"demo.charge\",\"payload\":{\"x\":\"?\"}}\n"
                .getBytes(StandardCharsets.UTF_8);
        byte[] invalid = line.clone();
        invalid[invalid.length - 5] = (byte) 0xff;
        Path broken = Files.write(dir.resolve("broken.jsonl"), invalid);
        CliRun refused = run("dispatch", "--file", broken.toString());
        assertThat(refused.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(refused.err().strip()).isEqualTo("dispatch: " + broken + " line 1: not valid UTF-8; expected one "
                + "JSON object per line in UTF-8 (see redrive dispatch --help)");

        byte[] marked = new byte[line.length + 3];
        marked[0] = (byte) 0xef;
        marked[1] = (byte) 0xbb;
        marked[2] = (byte) 0xbf;
        System.arraycopy(line, 0, marked, 3, line.length);
        CliRun accepted = run("dispatch", "--file", Files.write(dir.resolve("bom.jsonl"), marked).toString());
        assertThat(accepted.exit()).as(accepted.err()).isZero();
        assertThat(count("SELECT count(*) FROM operations WHERE run_id = 'bulk-utf8'")).isEqualTo(1);

        CliRun directory = run("dispatch", "--file", dir.toString());
        assertThat(directory.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(directory.err().strip()).isEqualTo("dispatch: cannot read " + dir + ": it is a directory; expected "
                + "a readable JSON Lines file, or - for stdin (see redrive dispatch --help)");
        CliRun missing = run("dispatch", "--file", dir.resolve("nothing.jsonl").toString());
        assertThat(missing.err()).contains("nothing.jsonl: no such file;");
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
