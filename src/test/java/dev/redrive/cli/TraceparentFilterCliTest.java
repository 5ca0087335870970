package dev.redrive.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.testing.DemoChargeWorker;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.json.TriageJson;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A dispatch that carried only a W3C {@code traceparent} (no {@code trace_id}) is found by the trace id its producer's
 * tracer shows, typed as 32 hex digits or pasted as the whole traceparent; {@code op show} shows the traceparent.
 */
class TraceparentFilterCliTest {
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String TRACEPARENT = "00-" + TRACE_ID + "-00f067aa0ba902b7-01";
    private static final String OPERATION = "traced-order:charge:0";

    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static DemoChargeWorker worker;

    @BeforeAll
    static void deadLetterATracedDispatch() {
        worker = new DemoChargeWorker(ns, "trace-worker", Duration.ofMinutes(5));
        CliRun traced = CliRun.in(ns, "dispatch", "--run", "traced-order", "--node", "charge", "--tool", "demo.charge",
                "--payload", "{\"amount\":5,\"fault\":\"invalid\"}", "--traceparent", TRACEPARENT);
        assertThat(traced.exit()).as(traced.err()).isZero();
        CliRun untraced = CliRun.in(ns, "dispatch", "--run", "plain-order", "--node", "charge", "--tool", "demo.charge",
                "--payload", "{\"amount\":5,\"fault\":\"invalid\"}", "--trace-id", "plain-trace");
        assertThat(untraced.exit()).as(untraced.err()).isZero();
        await().atMost(Duration.ofSeconds(20)).until(() -> ns.database().jdbc()
                .queryLong("SELECT count(*) FROM dlq_entries") == 2);
    }

    @AfterAll
    static void stopWorker() {
        worker.close();
    }

    @Test
    void theW3cTraceId_findsTheEntryOfADispatchThatCarriedOnlyATraceparent() throws Exception {
        CliRun list = CliRun.in(ns, "dlq", "list", "--trace", TRACE_ID, "--json");

        assertThat(list.exit()).as(list.err()).isZero();
        JsonNode rows = TriageJson.mapper().readTree(list.out()).get("rows");
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).get("operation_id").asText()).isEqualTo(OPERATION);
    }

    @Test
    void theWholeTraceparentOrUpperCaseHex_findTheSameEntry() {
        for (String typed : new String[]{TRACEPARENT, TRACE_ID.toUpperCase(Locale.ROOT)}) {
            CliRun list = CliRun.in(ns, "dlq", "list", "--trace", typed);
            assertThat(list.exit()).as(list.err()).isZero();
            assertThat(list.out()).as(typed).contains(OPERATION).doesNotContain("plain-order");
        }
    }

    @Test
    void aPlainTraceId_stillFindsItsEntryAlone() {
        CliRun list = CliRun.in(ns, "dlq", "list", "--trace", "plain-trace");

        assertThat(list.out()).contains("plain-order:charge:0").doesNotContain(OPERATION);
    }

    @Test
    void opShow_showsTheTraceparentAndItsTraceId() throws Exception {
        CliRun show = CliRun.in(ns, "op", "show", OPERATION);
        CliRun json = CliRun.in(ns, "op", "show", OPERATION, "--json");

        assertThat(show.out()).contains("traceparent " + TRACEPARENT + " (W3C trace id " + TRACE_ID + ")");
        assertThat(TriageJson.mapper().readTree(json.out()).get("traceparent").asText()).isEqualTo(TRACEPARENT);
    }

    @Test
    void reportByTheW3cTraceId_coversTheTracedOperationAlone_andNamesItsTraceparent(@TempDir Path directory)
            throws Exception {
        Path file = directory.resolve("trace.md");

        CliRun report = CliRun.in(ns, "report", "--trace", TRACE_ID, "--format", "md", "--out", file.toString());

        assertThat(report.exit()).as(report.err()).isZero();
        assertThat(report.out()).contains("1 operation(s)");
        assertThat(Files.readString(file)).contains(OPERATION, "traceparent", TRACEPARENT).doesNotContain("plain-order");
        CliRun none = CliRun.in(ns, "report", "--trace", "ffffffffffffffffffffffffffffffff", "--format", "md", "--out",
                file.toString());
        assertThat(none.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(none.err()).contains("no DLQ entry of an operation carries the trace 'ffffffffffffffffffffffffffffffff'");
    }
}
