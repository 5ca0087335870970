package dev.redrive.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.envelope.EnvelopeCodec;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.DemoChargeWorker;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.worker.client.WorkerClient;
import io.lettuce.core.XAddArgs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code redrive OP --payload-file FILE} through the real worker and the demo tools: a payload the tool refuses
 * dead-letters; its correction runs once, under its own key, and the original never runs again.
 */
class CorrectAndRedriveCliTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static DemoChargeWorker worker;
    private static WorkerClient client;

    @BeforeAll
    static void workerWithTheDemoTools() {
        worker = new DemoChargeWorker(ns, "correct-1", Duration.ofMinutes(5));
        client = worker.client();
    }

    @AfterAll
    static void stop() {
        worker.close();
    }

    @Test
    void correctedPayload_runsOnceUnderTheNewKey_andTheOriginalNeverRunsAgain() throws IOException {
        OperationId original = new OperationId("run-fix", "charge", 0);
        DispatchEnvelope dispatch = client.newDispatch(original, "demo.charge", "1",
                "{\"amount\":-5,\"fault\":\"invalid\"}", "trace-fix", "corr-fix", null);
        client.dispatch(dispatch);
        worker.awaitStatus(original, "DEAD_LETTERED");
        assertThat(ns.jdbc().queryOne("SELECT error_class FROM dlq_entries WHERE operation_id = ?", row -> row.getString(1),
                original.value())).contains("INVALID_INPUT");
        long callsBefore = worker.callsFor(original);
        Path file = Files.createTempFile("corrected", ".json");
        Files.writeString(file, "{\"amount\":5}");

        CliRun corrected = CliRun.in(ns, "redrive", original.value(), "--payload-file", file.toString(),
                "--reason", "amount was negative", "--operator", "alice");

        OperationId correction = new OperationId("run-fix", "charge", 1);
        assertThat(corrected.exit()).as(corrected.out() + corrected.err()).isZero();
        assertThat(corrected.out()).contains("DONE corrected by " + correction.value())
                .contains("changed /amount: -5 → 5").contains("removed /fault");
        worker.awaitStatus(correction, "SUCCEEDED");
        assertThat(ns.jdbc().query("SELECT http_status || ' ' || (body->>'amount') FROM demo_tool_calls WHERE idempotency_key = ?",
                row -> row.getString(1), correction.idempotencyKey())).containsExactly("200 5");
        assertThat(correction.idempotencyKey()).isNotEqualTo(original.idempotencyKey());

        // The original's dispatch delivered late: acked, and nothing runs.
        ns.redis().sync().xadd(ns.redis().keys().dispatch(), new XAddArgs(), new EnvelopeCodec().encode(dispatch));
        await().atMost(Duration.ofSeconds(15)).until(() ->
                ns.redis().sync().xpending(ns.redis().keys().dispatch(), "workers").getCount() == 0
                        && ns.jdbc().queryLong("SELECT count(*) FROM audit_log WHERE operation_id = ? AND action = 'dispatch_discarded'",
                        original.value()) >= 1);
        assertThat(worker.callsFor(original)).isEqualTo(callsBefore);
        assertThat(worker.callsFor(correction)).isEqualTo(1);
        assertThat(worker.status(original)).isEqualTo("SUPERSEDED");

        CliRun redrive = CliRun.in(ns, "redrive", original.value(), "--reason", "try the old one", "--operator", "bob");
        assertThat(redrive.exit()).isEqualTo(ExitCode.BLOCKED);
        assertThat(redrive.out()).contains("SUPERSEDED by correction " + correction.value());

        CliRun showOriginal = CliRun.in(ns, "op", "show", original.value());
        assertThat(showOriginal.out()).contains("status      SUPERSEDED")
                .contains("corrected by " + correction.value())
                .contains("SUPERSEDED (corrected by " + correction.value() + ")");
        CliRun showCorrection = CliRun.in(ns, "op", "show", correction.value());
        assertThat(showCorrection.out()).contains("corrects    " + original.value());
        JsonNode originalJson = TriageJson.parse(CliRun.in(ns, "op", "show", original.value(), "--json").out());
        JsonNode correctionJson = TriageJson.parse(CliRun.in(ns, "op", "show", correction.value(), "--json").out());
        assertThat(originalJson.get("corrected_by").asText()).isEqualTo(correction.value());
        assertThat(originalJson.get("dlq_entries").get(0).get("superseded_by").asText()).isEqualTo(correction.value());
        assertThat(correctionJson.get("corrects").asText()).isEqualTo(original.value());
        assertThat(correctionJson.get("verification").get("verdict").asText()).isEqualTo("SUCCEEDED_ONCE");
    }

    @Test
    void aPayloadThatIsNotOneJsonObject_isBadInputInOneLine_andChangesNothing() {
        OperationId original = new OperationId("run-array", "charge", 0);
        client.dispatch(client.newDispatch(original, "demo.charge", "1", "{\"amount\":1,\"fault\":\"invalid\"}",
                null, null, null));
        worker.awaitStatus(original, "DEAD_LETTERED");

        CliRun array = CliRun.in(ns, "redrive", original.value(), "--payload", "[1,2]", "--reason", "r", "--operator", "alice");
        CliRun cut = CliRun.in(ns, "redrive", original.value(), "--payload", "{\"amount\":12,\"password\":\"hunter2\"",
                "--reason", "r", "--operator", "alice", "--dry-run");
        CliRun twice = CliRun.in(ns, "redrive", original.value(), "--payload", "{\"amount\":1} {\"amount\":2}", "--reason",
                "r", "--operator", "alice");

        assertThat(array.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(array.err()).isEqualTo("redrive: --payload is a JSON array, not an object; expected one JSON object "
                + "such as {\"amount\":12} (see redrive redrive --help)\n");
        assertThat(cut.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(cut.err()).startsWith("redrive: --payload is not JSON: the text ends inside a JSON value")
                .doesNotContain("hunter2");
        assertThat(twice.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(twice.err()).startsWith("redrive: --payload is not JSON: more text follows the JSON value");
        assertThat(worker.status(original)).isEqualTo("DEAD_LETTERED");
        assertThat(ns.jdbc().queryLong("SELECT count(*) FROM operations WHERE run_id = 'run-array'")).isEqualTo(1);
    }

    @Test
    void aCorrectionOfSeveralOperations_isBadInput() {
        CliRun run = CliRun.in(ns, "redrive", "a:b:0", "a:c:0", "--payload", "{}", "--reason", "r");

        assertThat(run.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err()).contains("a correction takes exactly one operation id, got 2 ids");
    }



}
