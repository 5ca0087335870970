package dev.redrive.envelope;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.broker.BinaryConnection;
import dev.redrive.broker.StreamKeys;
import dev.redrive.identity.OperationId;
import dev.redrive.model.FailureClass;
import dev.redrive.testing.TestNamespace;
import dev.redrive.testing.TestTool;
import dev.redrive.worker.Worker;
import dev.redrive.worker.retry.BackoffRetryPolicy;
import dev.redrive.worker.tool.ToolCall;
import dev.redrive.worker.tool.TransientFailure;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import org.assertj.core.api.SoftAssertions;
import org.assertj.core.groups.Tuple;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Keeps {@code docs/wire-contract.md} and the code from disagreeing. Every vector of
 * {@code wire-contract/vectors.json} is checked against the codec, the operation identity and the parameters hash, and
 * must be shown in the document; the document's {@code redis-cli} example is published byte for byte, as another
 * runtime would, and must run on a real worker; what the document says the worker does with repeats, conflicts,
 * invalid messages and a first dispatch's {@code next_eligible_at} is checked against that worker.
 */
class WireContractConformanceTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final Path DOCUMENT = Path.of("docs", "wire-contract.md");
    private static final String VECTORS = "/wire-contract/vectors.json";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WITHIN = Duration.ofSeconds(20);

    private static JsonNode vectors;
    private static String document;
    private static RecordingTool tool;
    private static Worker worker;

    @BeforeAll
    static void readTheVectorsAndTheDocument_andStartAWorker() throws IOException {
        try (InputStream in = WireContractConformanceTest.class.getResourceAsStream(VECTORS)) {
            assertThat(in).as(VECTORS).isNotNull();
            vectors = JSON.readTree(in);
        }
        document = Files.readString(DOCUMENT, StandardCharsets.UTF_8);
        tool = new RecordingTool();
        worker = Worker.builder(ns.database(), ns.redis())
                .tool(tool)
                .consumerName("conformance")
                .leaseDuration(Duration.ofSeconds(2))
                .claimInterval(Duration.ofMillis(200))
                .shutdownGrace(Duration.ofSeconds(5))
                // Short, so that a tool nobody serves is dead-lettered within the test's wait.
                .unservedToolGrace(Duration.ofSeconds(2))
                .retryPolicy(BackoffRetryPolicy.builder().baseDelay(Duration.ofMillis(50))
                        .maxDelay(Duration.ofMillis(400)).build())
                .build()
                .start();
    }

    @AfterAll
    static void stopTheWorker() throws Exception {
        if (worker != null) {
            worker.shutdown().get(15, TimeUnit.SECONDS);
        }
    }

    // ---- the vectors against the code ---------------------------------------------------------------------------

    @Test
    void everyOperationId_derivesTheIdempotencyKeyOfItsVector() {
        for (JsonNode vector : vectors.get("idempotency_keys")) {
            String operationId = vector.get("operation_id").asText();
            OperationId id = OperationId.parse(operationId);
            assertThat(id.value()).as("the operation id is run_id:node_id:logical_attempt").isEqualTo(operationId);
            assertThat(new OperationId(id.runId(), id.nodeId(), id.logicalAttempt()).idempotencyKey())
                    .as(operationId).isEqualTo(vector.get("idempotency_key").asText());
        }
    }

    @Test
    void everyNamespace_namesItsKeysAsTheVectorsSay() {
        for (JsonNode vector : vectors.get("keys")) {
            StreamKeys keys = new StreamKeys(vector.get("namespace").asText());
            assertThat(List.of(keys.dispatch(), keys.retry(), keys.dlq(), keys.toolPauses(),
                    keys.toolBudget(vector.get("tool_budget").get("tool").asText()), keys.marker(),
                    keys.deliveries(vector.get("deliveries").get("entry_id").asText())))
                    .as(vector.get("namespace").asText())
                    .containsExactly(vector.get("dispatch").asText(), vector.get("retry").asText(),
                            vector.get("dlq").asText(), vector.get("tool_pauses").asText(),
                            vector.get("tool_budget").get("key").asText(), vector.get("marker").asText(),
                            vector.get("deliveries").get("key").asText());
        }
    }

    @Test
    void payloadPairs_areTheSameParametersExactlyWhenTheVectorsSay_andExactlyWhenPostgresqlFindsThemEqual() {
        SoftAssertions softly = new SoftAssertions();
        for (JsonNode pair : vectors.get("parameters").get("pairs")) {
            String a = pair.get("a").asText();
            String b = pair.get("b").asText();
            boolean same = pair.get("same").asBoolean();
            softly.assertThat(parameterHash(a).equals(parameterHash(b))).as("hash of %s vs %s", a, b).isEqualTo(same);
            softly.assertThat(ns.database().jdbc().queryOne("SELECT ?::jsonb = ?::jsonb", row -> row.getBoolean(1), a, b))
                    .as("jsonb equality of %s vs %s (the claim statement's comparison)", a, b).contains(same);
        }
        softly.assertAll();
    }

    @Test
    void canonicalFormsAndParameterHashes_areTheVectorsOnes() {
        JsonNode parameters = vectors.get("parameters");
        String toolName = parameters.get("tool").asText();
        String key = parameters.get("idempotency_key").asText();
        SoftAssertions softly = new SoftAssertions();
        for (JsonNode vector : parameters.get("canonical")) {
            String payload = vector.get("payload").asText();
            String canonical = JsonPayload.parse(payload, Integer.MAX_VALUE).canonical();
            softly.assertThat(canonical).as("canonical form of %s", payload).isEqualTo(vector.get("canonical").asText());
            softly.assertThat(parameterHash(payload)).as("hash of %s", payload)
                    .isEqualTo(vector.get("hash").asText())
                    .as("SHA-256 of tool, key and canonical form, one per line")
                    .isEqualTo(sha256Hex(toolName + "\n" + key + "\n" + canonical));
        }
        softly.assertAll();
    }

    /** The parameter hash the code computes for {@code payload} under the vectors' tool and idempotency key. */
    private static String parameterHash(String payload) {
        JsonNode parameters = vectors.get("parameters");
        return OperationParameters.hash(parameters.get("tool").asText(), parameters.get("idempotency_key").asText(),
                payload);
    }

    @Test
    void everyEnvelopeVector_isAcceptedOrRefusedWithItsCodeAndMessage() {
        SoftAssertions softly = new SoftAssertions();
        for (JsonNode vector : vectors.get("envelopes").get("cases")) {
            String name = vector.get("name").asText();
            Map<String, String> fields = envelope(vector);
            EnvelopeCodec codec = new EnvelopeCodec(vector.path("max_payload_bytes")
                    .asInt(EnvelopeCodec.DEFAULT_MAX_PAYLOAD_BYTES));
            String expect = vector.get("expect").asText();
            if (expect.equals("accepted")) {
                softly.assertThatCode(() -> codec.decode(fields)).as(name).doesNotThrowAnyException();
            } else {
                softly.assertThatThrownBy(() -> codec.decode(fields)).as(name)
                        .isInstanceOfSatisfying(InvalidEnvelopeException.class,
                                e -> assertThat(e.code()).as("%s: %s", name, e.getMessage()).isEqualTo(expect))
                        .hasMessageContaining(vector.get("message").asText());
            }
        }
        softly.assertAll();
    }

    @Test
    void aRetryOrRedriveOfTheBaseDispatch_keepsItsOperationIdAndKey_andAddsOneToTheAttempt() {
        EnvelopeCodec codec = new EnvelopeCodec();
        DispatchEnvelope first = codec.decode(base());
        Instant now = Instant.parse("2026-11-29T10:00:01Z");
        Map<String, String> retry = codec.encode(first.retry(now.plusMillis(1250), FailureClass.TRANSIENT, now));
        Map<String, String> redrive = codec.encode(first.redrive(2, UUID.randomUUID().toString(), "1", now));

        for (Map<String, String> again : List.of(retry, redrive)) {
            assertThat(again).containsEntry("operation_id", first.operationId().value())
                    .containsEntry("idempotency_key", first.idempotencyKey())
                    .containsEntry("attempt", "2");
        }
        assertThat(retry).containsEntry("next_eligible_at", "2026-11-29T10:00:02.250Z")
                .containsEntry("last_error_class", "TRANSIENT").doesNotContainKey("redrive_command_id");
        assertThat(redrive).containsKey("redrive_command_id").doesNotContainKey("next_eligible_at");
        assertThat(codec.encode(first).keySet()).as("the codec writes the fields in the documented order")
                .containsExactly("v", "run_id", "node_id", "logical_attempt", "operation_id", "attempt", "tool",
                        "tool_schema_version", "idempotency_key", "payload", "trace_id", "correlation_id",
                        "runtime_version", "dispatched_at");
    }

    // ---- the document shows the vectors ------------------------------------------------------------------------

    @Test
    void theDocumentShowsEveryVector() {
        SoftAssertions softly = new SoftAssertions();
        for (JsonNode vector : vectors.get("idempotency_keys")) {
            requireLine(softly, "idempotency key vector", code(vector.get("operation_id").asText()),
                    code(vector.get("idempotency_key").asText()));
        }
        for (JsonNode vector : vectors.get("keys")) {
            requireLine(softly, "key vector", code(vector.get("namespace").asText()), code(vector.get("dispatch").asText()),
                    code(vector.get("retry").asText()), code(vector.get("dlq").asText()),
                    code(vector.get("tool_pauses").asText()), code(vector.get("tool_budget").get("key").asText()),
                    code(vector.get("marker").asText()), code(vector.get("deliveries").get("key").asText()));
        }
        for (JsonNode pair : vectors.get("parameters").get("pairs")) {
            requireLine(softly, "payload pair", code(pair.get("a").asText()), code(pair.get("b").asText()),
                    pair.get("same").asBoolean() ? "| same |" : "| different |");
        }
        for (JsonNode vector : vectors.get("parameters").get("canonical")) {
            requireLine(softly, "canonical form", code(vector.get("payload").asText()),
                    code(vector.get("canonical").asText()), code(vector.get("hash").asText()));
        }
        requireLine(softly, "parameters of the hash vectors", code(vectors.get("parameters").get("tool").asText()),
                code(vectors.get("parameters").get("idempotency_key").asText()));
        for (JsonNode vector : vectors.get("envelopes").get("cases")) {
            List<String> parts = new ArrayList<>(List.of(code(vector.get("expect").asText())));
            vector.path("set").fields().forEachRemaining(field -> parts.add(code(field.getKey())
                    + (field.getValue().isTextual() && field.getValue().asText().isEmpty() ? " empty"
                    : " = " + code(shown(field.getValue())))));
            vector.path("remove").forEach(field -> parts.add("no " + code(field.asText())));
            if (vector.has("message")) {
                parts.add(code(vector.get("message").asText()));
            }
            if (vector.has("max_payload_bytes")) {
                parts.add("`maxPayloadBytes(" + vector.get("max_payload_bytes").asInt() + ")`");
            }
            requireRow(softly, vector.get("name").asText(), parts);
        }
        for (JsonNode vector : vectors.get("bytes")) {
            requireRow(softly, vector.get("name").asText(), List.of(code(vector.get("field").asText()),
                    code(vector.get("base64").asText()), code(vector.get("expect").asText()),
                    code(vector.get("message").asText())));
        }
        softly.assertThat(document).as("the document names its vectors file")
                .contains("src/test/resources/wire-contract/vectors.json");
        softly.assertAll();
    }

    @Test
    void theDocumentsRedisCliExample_publishesExactlyTheBaseVector() {
        List<String> command = redisCliExample();
        assertThat(command.subList(0, 4)).containsExactly("redis-cli", "XADD", "{redrive}:dispatch", "*");
        assertThat(command.size() % 2).as("field value pairs").isZero();
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 4; i < command.size(); i += 2) {
            fields.put(command.get(i), command.get(i + 1));
        }
        assertThat(fields).isEqualTo(base());
        assertThat(document).as("the Node.js example derives the key the documented way")
                .contains("'op-' + createHash('sha256').update(operationId, 'utf8').digest('hex').slice(0, 32)");
    }

    // ---- what a worker does with them --------------------------------------------------------------------------

    @Test
    void theWorkedExample_runsOnARealWorker_recordedOnFirstSight_andRepeatsAndConflictsAreAnsweredFromTheFacts() {
        Map<String, String> example = new LinkedHashMap<>();
        List<String> command = redisCliExample();
        for (int i = 4; i < command.size(); i += 2) {
            example.put(command.get(i), command.get(i + 1));
        }
        String operationId = example.get("operation_id");
        String key = example.get("idempotency_key");
        assertThat(count("SELECT count(*) FROM operations WHERE operation_id = ?", operationId)).isZero();

        xadd(example);
        awaitStatus(operationId, "SUCCEEDED");
        assertThat(ns.database().jdbc().queryOne("""
                SELECT attempt || ' ' || idempotency_key || ' ' || tool || ' ' || tool_schema_version || ' '
                       || trace_id || ' ' || correlation_id || ' ' || runtime_version || ' ' || payload::text
                  FROM operations WHERE operation_id = ?""", row -> row.getString(1), operationId))
                .contains("1 " + key + " demo.charge 1 4bf92f3577b34da6a3ce929d0e0e4736 order-1042 "
                        + "node-orchestrator/2.3.1 {\"amount\": 10, \"currency\": \"EUR\"}");
        assertThat(tool.callsFor(key)).singleElement().satisfies(call -> {
            assertThat(call.operationId()).isEqualTo(operationId);
            assertThat(call.attempt()).isEqualTo(1);
            assertThat(call.payload()).as("the payload as PostgreSQL renders the stored jsonb")
                    .isEqualTo("{\"amount\": 10, \"currency\": \"EUR\"}");
        });

        String repeat = xadd(example);
        Map<String, String> otherPayload = new LinkedHashMap<>(example);
        otherPayload.put("payload", "{\"amount\":11,\"currency\":\"EUR\"}");
        String conflictOnId = xadd(otherPayload);
        Map<String, String> keyOfAnother = new LinkedHashMap<>(example);
        keyOfAnother.put("node_id", "refund");
        keyOfAnother.put("operation_id", "order-1042:refund:0");
        String conflictOnKey = xadd(keyOfAnother);
        Map<String, String> forgedCommand = new LinkedHashMap<>(example);
        forgedCommand.put("redrive_command_id", UUID.randomUUID().toString());
        String unknownCommand = xadd(forgedCommand);

        awaitTrue("the repeat and the conflicts are settled", () -> pendingEntries() == 0
                && count("SELECT count(*) FROM dlq_entries WHERE entry_id = ANY (?)",
                (Object) new String[]{conflictOnId, conflictOnKey, unknownCommand}) == 3);
        assertThat(dlqCode(conflictOnId)).contains("INVALID_INPUT idempotency_conflict");
        assertThat(dlqCode(conflictOnKey)).contains("INVALID_INPUT idempotency_conflict");
        assertThat(dlqCode(unknownCommand)).contains("INVALID_INPUT unknown_redrive_command");
        assertThat(dlqCode(repeat)).as("a repeat is no error").isEmpty();
        assertThat(tool.callsFor(key)).as("one call, whatever was published again").hasSize(1);
        assertThat(count("SELECT count(*) FROM operations WHERE operation_id = 'order-1042:refund:0'")).isZero();
    }

    @Test
    void aRetry_keepsTheOperationIdAndKey_andCarriesTheNextAttempt() {
        OperationId id = new OperationId("wire-retry", "charge", 0);
        xadd(firstDispatch(id, "{\"amount\":5,\"fail_first\":true}"));

        awaitStatus(id.value(), "SUCCEEDED");
        assertThat(tool.callsFor(id.idempotencyKey())).extracting(ToolCall::operationId, ToolCall::attempt)
                .containsExactly(Tuple.tuple(id.value(), 1),
                        Tuple.tuple(id.value(), 2));
        assertThat(ns.database().jdbc().query("SELECT attempt || ' ' || outcome FROM attempts WHERE operation_id = ? ORDER BY id",
                row -> row.getString(1), id.value())).containsExactly("1 RETRY_SCHEDULED", "2 SUCCEEDED");
    }

    @Test
    void aToolNoWorkerAnnounced_deadLettersTheOperation_asNoWorkerForTool() {
        OperationId id = new OperationId("wire-tool", "ship", 0);
        Map<String, String> fields = firstDispatch(id, "{\"parcel\":1}");
        fields.put("tool", "demo.missing");
        xadd(fields);

        awaitStatus(id.value(), "DEAD_LETTERED");
        assertThat(ns.database().jdbc().queryOne("SELECT error_class || ' ' || error_code FROM dlq_entries WHERE operation_id = ?",
                row -> row.getString(1), id.value())).contains("INVALID_INPUT no_worker_for_tool");
    }

    @Test
    void refusedVectors_areDeadLetteredAsThemselves_withTheirCode_keepingTheirRawFields() throws Exception {
        record Sent(String name, Map<String, byte[]> fields, String code, String message) {
        }
        List<Sent> sent = new ArrayList<>();
        for (JsonNode vector : vectors.get("envelopes").get("cases")) {
            String expect = vector.get("expect").asText();
            Map<String, String> fields = envelope(vector);
            // A worker-specific limit is not this worker's; an unpaired surrogate has no UTF-8 form to send.
            if (!expect.equals("accepted") && !vector.has("max_payload_bytes") && fields.values().stream().allMatch(
                    WireContractConformanceTest::encodable)) {
                sent.add(new Sent(vector.get("name").asText(), utf8(fields), expect, vector.get("message").asText()));
            }
        }
        for (JsonNode vector : vectors.get("bytes")) {
            Map<String, byte[]> fields = utf8(base());
            fields.put(vector.get("field").asText(), Base64.getDecoder().decode(vector.get("base64").asText()));
            sent.add(new Sent(vector.get("name").asText(), fields, vector.get("expect").asText(),
                    vector.get("message").asText()));
        }
        long operationsBefore = count("SELECT count(*) FROM operations");
        Map<String, Sent> byEntry = new LinkedHashMap<>();
        for (Sent message : sent) {
            byEntry.put(xaddBytes(message.fields()), message);
        }
        String[] entryIds = byEntry.keySet().toArray(String[]::new);

        awaitTrue("every refused message is dead-lettered", () ->
                count("SELECT count(*) FROM dlq_entries WHERE entry_id = ANY (?)", (Object) entryIds) == entryIds.length);
        SoftAssertions softly = new SoftAssertions();
        for (Map.Entry<String, Sent> entry : byEntry.entrySet()) {
            Sent message = entry.getValue();
            Map<String, String> row = ns.database().jdbc().queryOne("""
                    SELECT error_class, error_code, error_message, raw_message::text AS raw FROM dlq_entries
                     WHERE entry_id = ?""", r -> Map.of("class", r.getString("error_class"), "code", r.getString("error_code"),
                    "message", r.getString("error_message"), "raw", r.getString("raw")), entry.getKey()).orElseThrow();
            softly.assertThat(row.get("class")).as(message.name()).isEqualTo("INVALID_INPUT");
            softly.assertThat(row.get("code")).as(message.name()).isEqualTo(message.code());
            softly.assertThat(row.get("message")).as(message.name()).contains(message.message());
            Set<String> kept = new LinkedHashSet<>();
            JSON.readTree(row.get("raw")).fieldNames().forEachRemaining(kept::add);
            softly.assertThat(kept).as("%s: its raw fields are kept", message.name())
                    .containsAll(message.fields().keySet());
            softly.assertThat(kept.contains("_truncated")).as("%s: cut to 64 KiB", message.name())
                    .isEqualTo(message.fields().values().stream().mapToLong(v -> v.length).sum() > 64 * 1024);
        }
        softly.assertAll();
        assertThat(count("SELECT count(*) FROM operations")).as("no operation is touched").isEqualTo(operationsBefore);

        String oneEntry = entryIds[0];
        long dlqEntryId = count("SELECT id FROM dlq_entries WHERE entry_id = ?", oneEntry);
        awaitTrue("its event is on the DLQ stream", () -> dlqEvent(dlqEntryId).isPresent());
        Map<String, String> event = dlqEvent(dlqEntryId).orElseThrow();
        assertThat(event.keySet()).containsExactly("dlq_entry_id", "operation_id", "error_class", "tool", "fingerprint",
                "entered_at");
        assertThat(event).containsEntry("error_class", "INVALID_INPUT").containsEntry("tool", "demo.charge");
        assertThatCode(() -> Instant.parse(event.get("entered_at"))).doesNotThrowAnyException();
    }

    @Test
    void aMessageOver64KiB_isKeptCutToFit_withItsFullSizeAndTheSha256OfItsFields() throws Exception {
        Map<String, String> fields = base();
        fields.put("v", "2");
        fields.put("payload", "{\"s\":\"" + "a".repeat(70_000) + "\"}");
        String entryId = xadd(fields);

        awaitTrue("dead-lettered", () -> count("SELECT count(*) FROM dlq_entries WHERE entry_id = ?", entryId) == 1);
        JsonNode raw = JSON.readTree(ns.database().jdbc().queryOne("SELECT raw_message::text FROM dlq_entries WHERE entry_id = ?",
                row -> row.getString(1), entryId).orElseThrow());
        byte[] original = handWrittenJson(fields).getBytes(StandardCharsets.UTF_8);
        assertThat(raw.get("_truncated").asText()).isEqualTo("field values cut to 65536 bytes; the message was "
                + original.length + " bytes, SHA-256 " + sha256Hex(original));
        long before = 0;
        for (String name : List.of("v", "run_id", "node_id", "logical_attempt", "operation_id", "attempt", "tool",
                "tool_schema_version", "idempotency_key")) {
            assertThat(raw.get(name).asText()).as("kept whole: %s", name).isEqualTo(fields.get(name));
            before += fields.get(name).getBytes(StandardCharsets.UTF_8).length;
        }
        assertThat(raw.get("payload").asText()).as("the value that crosses the limit is cut")
                .hasSize((int) (64 * 1024 - before)).isEqualTo(fields.get("payload").substring(0, (int) (64 * 1024 - before)));
        assertThat(raw.get("trace_id").asText()).as("the values after it are kept empty").isEmpty();
        assertThat(raw.get("dispatched_at").asText()).isEmpty();
    }

    @Test
    void aFutureNextEligibleAtOnAFirstDispatch_makesItWait_thenItRunsOnce() {
        OperationId id = new OperationId("wire-later", "charge", 0);
        Map<String, String> fields = firstDispatch(id, "{\"amount\":7}");
        Instant due = Instant.now().plusSeconds(3).truncatedTo(ChronoUnit.MILLIS);
        fields.put("next_eligible_at", due.toString());
        xadd(fields);

        awaitTrue("recorded as a scheduled retry", () -> count(
                "SELECT count(*) FROM operations WHERE operation_id = ? AND status = 'RETRY_SCHEDULED'", id.value()) == 1);
        assertThat(tool.callsFor(id.idempotencyKey())).as("not called before it is due").isEmpty();
        awaitStatus(id.value(), "SUCCEEDED");
        assertThat(tool.callsFor(id.idempotencyKey())).hasSize(1);
        assertThat(Instant.now()).isAfterOrEqualTo(due);
    }

    @Test
    void textAfterThePayloadObject_isRefusedByTheCodec() {
        OperationId id = new OperationId("wire-trailing", "charge", 0);
        Map<String, String> fields = firstDispatch(id, "{\"amount\":7} and more");
        assertThatThrownBy(() -> new EnvelopeCodec().decode(fields)).isInstanceOfSatisfying(InvalidEnvelopeException.class,
                e -> assertThat(e.code()).isEqualTo(InvalidEnvelopeException.INVALID_ENVELOPE))
                .hasMessageContaining("payload is not JSON");

        String entryId = xadd(fields);
        awaitTrue("dead-lettered", () -> count("SELECT count(*) FROM dlq_entries WHERE entry_id = ?", entryId) == 1);
        assertThat(dlqCode(entryId)).contains("INVALID_INPUT invalid_envelope");
        assertThat(count("SELECT count(*) FROM operations WHERE operation_id = ?", id.value())).isZero();
        assertThat(tool.callsFor(id.idempotencyKey())).isEmpty();
    }

    // ---- helpers ---------------------------------------------------------------------------------------------

    /** Answers at once; fails the first call of an operation whose payload asks for it with a TRANSIENT failure. */
    private static final class RecordingTool extends TestTool {
        private final Queue<ToolCall> calls = new ConcurrentLinkedQueue<>();

        RecordingTool() {
            super("demo.charge");
        }

        @Override
        public String execute(ToolCall call) throws TransientFailure {
            boolean first = callsFor(call.idempotencyKey()).isEmpty();
            calls.add(call);
            if (first && call.payload().contains("\"fail_first\"")) {
                throw new TransientFailure("test_transient", "the first call of " + call.operationId() + " fails");
            }
            return "{\"charged\":true}";
        }

        List<ToolCall> callsFor(String idempotencyKey) {
            return calls.stream().filter(call -> call.idempotencyKey().equals(idempotencyKey)).toList();
        }
    }

    private static Map<String, String> base() {
        Map<String, String> fields = new LinkedHashMap<>();
        vectors.get("envelopes").get("base").fields().forEachRemaining(f -> fields.put(f.getKey(), f.getValue().asText()));
        return fields;
    }

    /** The base dispatch with a vector's changes, in the base's field order (new fields at the end). */
    private static Map<String, String> envelope(JsonNode vector) {
        Map<String, String> fields = base();
        vector.path("remove").forEach(field -> fields.remove(field.asText()));
        vector.path("set").fields().forEachRemaining(field -> fields.put(field.getKey(), value(field.getValue())));
        return fields;
    }

    /** A first dispatch of {@code id} like the base one: attempt 1 and the derived key. */
    private static Map<String, String> firstDispatch(OperationId id, String payload) {
        Map<String, String> fields = base();
        fields.put("run_id", id.runId());
        fields.put("node_id", id.nodeId());
        fields.put("logical_attempt", Integer.toString(id.logicalAttempt()));
        fields.put("operation_id", id.value());
        fields.put("idempotency_key", id.idempotencyKey());
        fields.put("payload", payload);
        return fields;
    }

    private static String value(JsonNode value) {
        if (value.isTextual()) {
            return value.asText();
        }
        return value.get("before").asText() + value.get("repeat").asText().repeat(value.get("times").asInt())
                + value.get("after").asText();
    }

    /** How the document writes a vector's value: characters a reader cannot see as ⟨U+XXXX⟩, repeats as ⟨R × N⟩. */
    private static String shown(JsonNode value) {
        if (value.isTextual()) {
            return visible(value.asText());
        }
        return visible(value.get("before").asText()) + "<" + visible(value.get("repeat").asText()) + " × "
                + value.get("times").asInt() + ">" + visible(value.get("after").asText());
    }

    private static String visible(String text) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1));
            if (pair) {
                out.append(c).append(text.charAt(++i));
            } else if (c < 0x20 || c == 0x7F || Character.isSurrogate(c)) {
                out.append(String.format("⟨U+%04X⟩", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static String code(String text) {
        return "`" + text + "`";
    }

    private static void requireLine(SoftAssertions softly, String what, String... parts) {
        boolean shown = document.lines().anyMatch(line -> List.of(parts).stream().allMatch(line::contains));
        softly.assertThat(shown).as("the document has a line with %s: %s", what, String.join(" and ", parts)).isTrue();
    }

    private static void requireRow(SoftAssertions softly, String name, List<String> parts) {
        Optional<String> row = document.lines().filter(line -> line.startsWith("| " + name + " |")).findFirst();
        softly.assertThat(row).as("the document has a table row for vector '%s'", name).isPresent();
        row.ifPresent(line -> {
            for (String part : parts) {
                softly.assertThat(line).as("row of vector '%s'", name).contains(part);
            }
        });
    }

    /** The tokens of the document's {@code redis-cli XADD} example, quoted as a shell reads them. */
    private static List<String> redisCliExample() {
        List<String> lines = document.lines().toList();
        int start = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("redis-cli XADD")) {
                assertThat(start).as("one redis-cli XADD example").isEqualTo(-1);
                start = i;
            }
        }
        assertThat(start).as("the document has a redis-cli XADD example").isNotNegative();
        StringBuilder command = new StringBuilder();
        for (int i = start; i < lines.size() && !lines.get(i).startsWith("```"); i++) {
            String line = lines.get(i).strip();
            boolean continued = line.endsWith("\\");
            command.append(continued ? line.substring(0, line.length() - 1) : line).append(' ');
            if (!continued) {
                break;
            }
        }
        return shellWords(command.toString());
    }

    private static List<String> shellWords(String text) {
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\'') {
                int end = text.indexOf('\'', i + 1);
                assertThat(end).as("closing quote in %s", text).isPositive();
                word = word == null ? new StringBuilder() : word;
                word.append(text, i + 1, end);
                i = end;
            } else if (Character.isWhitespace(c)) {
                if (word != null) {
                    words.add(word.toString());
                    word = null;
                }
            } else {
                assertThat(c).as("only single quotes are used in the example").isNotIn('"', '\\', '$', '`');
                word = word == null ? new StringBuilder() : word;
                word.append(c);
            }
        }
        if (word != null) {
            words.add(word.toString());
        }
        return words;
    }

    private static boolean encodable(String text) {
        return StandardCharsets.UTF_8.newEncoder().canEncode(text);
    }

    private static Map<String, byte[]> utf8(Map<String, String> fields) {
        Map<String, byte[]> bytes = new LinkedHashMap<>();
        fields.forEach((name, value) -> bytes.put(name, value.getBytes(StandardCharsets.UTF_8)));
        return bytes;
    }

    private static String xadd(Map<String, String> fields) {
        return xaddBytes(utf8(fields));
    }

    /** Adds an entry to the dispatch stream as another runtime would, byte for byte, in the map's order. */
    private static String xaddBytes(Map<String, byte[]> fields) {
        try (BinaryConnection connection = ns.redis().newBinaryConnection()) {
            return connection.sync().xadd(ns.redis().keys().dispatch(), fields);
        }
    }

    /** The fields as a compact JSON object in their order, written without a JSON library (ASCII text only). */
    private static String handWrittenJson(Map<String, String> fields) {
        StringBuilder json = new StringBuilder("{");
        for (Iterator<Map.Entry<String, String>> it = fields.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, String> field = it.next();
            json.append(quoted(field.getKey())).append(':').append(quoted(field.getValue()));
            json.append(it.hasNext() ? "," : "}");
        }
        return json.toString();
    }

    private static String quoted(String text) {
        assertThat(text.chars()).as("printable ASCII only").allMatch(c -> c >= 0x20 && c < 0x7F);
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static Optional<Map<String, String>> dlqEvent(long dlqEntryId) {
        List<StreamMessage<String, String>> events = ns.redis().sync().xrange(ns.redis().keys().dlq(), Range.create("-", "+"));
        return events.stream().map(StreamMessage::getBody)
                .filter(body -> Long.toString(dlqEntryId).equals(body.get("dlq_entry_id"))).findFirst();
    }

    private static Optional<String> dlqCode(String entryId) {
        return ns.database().jdbc().queryOne("SELECT error_class || ' ' || error_code FROM dlq_entries WHERE entry_id = ?",
                row -> row.getString(1), entryId);
    }

    private static long count(String sql, Object... params) {
        return ns.database().jdbc().queryLong(sql, params);
    }

    private static long pendingEntries() {
        return ns.redis().sync().xpending(ns.redis().keys().dispatch(), "workers").getCount();
    }

    private static void awaitStatus(String operationId, String status) {
        awaitTrue(operationId + " becomes " + status, () -> ns.database().jdbc().queryOne(
                "SELECT status FROM operations WHERE operation_id = ?", row -> row.getString(1), operationId)
                .filter(status::equals).isPresent());
    }

    private static void awaitTrue(String what, BooleanSupplier condition) {
        try {
            await().atMost(WITHIN).pollInterval(Duration.ofMillis(50)).until(condition::getAsBoolean);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(what + " within " + WITHIN, e);
        }
    }

    private static String sha256Hex(String text) {
        return sha256Hex(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String sha256Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
