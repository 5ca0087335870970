package dev.redrive.demo.tools;

import dev.redrive.store.Jdbc;
import dev.redrive.testing.TestNamespace;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class DemoToolServerTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final Duration CLIENT_TIMEOUT = Duration.ofMillis(400);
    private static final Duration STALL = Duration.ofMillis(1500);
    private static DemoToolServer tools;
    private static final HttpClient http = HttpClient.newHttpClient();
    private static final ObjectMapper json = new ObjectMapper();

    @BeforeAll
    static void startTools() {
        tools = DemoToolServer.start(ns.database()).stallAnswers(STALL);
    }

    @AfterAll
    static void stopTools() {
        tools.close();
    }

    @Test
    void endpoints_areOnLoopback() {
        assertThat(tools.chargeEndpoint().toString()).matches("http://127\\.0\\.0\\.1:\\d+/tools/demo\\.charge");
        assertThat(tools.lookupEndpoint().toString()).matches("http://127\\.0\\.0\\.1:\\d+/tools/demo\\.charge/effects/");
    }

    @Test
    void lookupEndpoints_ofTheRunningService_canBeFoundThroughTheNamespace() {
        assertThat(DemoToolServer.lookupEndpoints(ns.database()))
                .containsEntry("demo.charge", tools.lookupEndpoint())
                .containsEntry("demo.ship", tools.lookupEndpoint(DemoTool.SHIP))
                .isEqualTo(tools.lookupEndpoints());

        DemoToolServer.start(ns.database()).close();

        assertThat(DemoToolServer.lookupEndpoints(ns.database())).containsEntry("demo.charge", tools.lookupEndpoint());
    }

    @Test
    void otherTools_haveTheirOwnEndpointsAndResults() throws Exception {
        String key = newKey();

        HttpResponse<String> shipped = send(HttpRequest.newBuilder(tools.endpoint(DemoTool.SHIP))
                .header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.ofString("{\"order\":\"o-1\"}")).build());
        HttpResponse<String> found = send(HttpRequest.newBuilder(URI.create(tools.lookupEndpoint(DemoTool.SHIP) + key))
                .GET().build());

        assertThat(shipped.statusCode()).isEqualTo(200);
        assertThat(json.readTree(shipped.body()).get("shipment_id").asText()).startsWith("shp_");
        assertThat(found.statusCode()).isEqualTo(200);
        assertThat(ns.database().jdbc().queryLong(
                "SELECT count(*) FROM demo_tool_effects WHERE idempotency_key = ? AND tool = 'demo.ship'", key)).isEqualTo(1);
    }

    @Test
    void charge_appliesOnce_andARepeatedKeyReplaysTheStoredResult() throws Exception {
        String key = newKey();

        HttpResponse<String> first = charge(key, "{\"amount\":10}");
        HttpResponse<String> second = charge(key, "{\"amount\":10}");

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
        JsonNode result = json.readTree(first.body());
        assertThat(result.get("charge_id").asText()).startsWith("ch_");
        assertThat(result.get("amount").decimalValue()).isEqualByComparingTo("10");
        assertThat(result.get("idempotency_key").asText()).isEqualTo(key);
        assertThat(result.get("applied_at").asText()).isNotBlank();
        assertThat(second.statusCode()).isEqualTo(200);
        assertThat(second.headers().firstValue("Idempotent-Replayed")).contains("true");
        assertThat(json.readTree(second.body())).isEqualTo(result);
        assertThat(effects(key)).isEqualTo(1);
        assertThat(callStatuses(key)).containsExactly(200, 200);
    }

    @Test
    void everyCall_isRecordedWithOperationIdAttemptAndStatus() {
        String key = newKey();

        charge(key, "{\"amount\":3,\"fault\":\"transient:1\"}");

        List<String> rows = ns.database().jdbc().query(
                "SELECT operation_id, attempt, http_status, fault, body->>'amount' FROM demo_tool_calls WHERE idempotency_key = ?",
                row -> row.getString(1) + "|" + row.getInt(2) + "|" + row.getInt(3) + "|" + row.getString(4) + "|" + row.getString(5),
                key);
        assertThat(rows).containsExactly("run-1:charge:0|1|500|transient|3");
    }

    @Test
    void missingIdempotencyKey_isRefusedWith400_andStillRecorded() throws Exception {
        long before = ns.database().jdbc().queryLong("SELECT count(*) FROM demo_tool_calls WHERE idempotency_key IS NULL");

        HttpResponse<String> response = http.send(HttpRequest.newBuilder(tools.chargeEndpoint())
                .POST(HttpRequest.BodyPublishers.ofString("{\"amount\":1}")).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("Idempotency-Key");
        assertThat(ns.database().jdbc().queryLong("SELECT count(*) FROM demo_tool_calls WHERE idempotency_key IS NULL"))
                .isEqualTo(before + 1);
    }

    @Test
    void rateLimit_failsTheFirstNCallsWithRetryAfter_thenApplies() {
        String key = newKey();
        String payload = "{\"amount\":10,\"fault\":\"rate_limit:2:3\"}";

        HttpResponse<String> first = charge(key, payload);
        HttpResponse<String> second = charge(key, payload);
        HttpResponse<String> third = charge(key, payload);

        assertThat(first.statusCode()).isEqualTo(429);
        assertThat(first.headers().firstValue("Retry-After")).contains("3");
        assertThat(second.statusCode()).isEqualTo(429);
        assertThat(third.statusCode()).isEqualTo(200);
        assertThat(effects(key)).isEqualTo(1);
    }

    @Test
    void transientAndDependencyDown_failTheirCountsInTurn() {
        String key = newKey();
        String payload = "{\"amount\":5,\"fault\":\"transient:2;dependency_down:1\"}";

        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            statuses.add(charge(key, payload).statusCode());
        }

        assertThat(statuses).containsExactly(500, 500, 503, 200);
        assertThat(callStatuses(key)).containsExactly(500, 500, 503, 200);
        assertThat(effects(key)).isEqualTo(1);
    }

    @Test
    void invalidWithoutCount_failsEveryCall_andNeverApplies() {
        String key = newKey();

        for (int i = 0; i < 3; i++) {
            assertThat(charge(key, "{\"amount\":-1,\"fault\":\"invalid\"}").statusCode()).isEqualTo(400);
        }

        assertThat(effects(key)).isZero();
    }

    @Test
    void forbiddenOnce_failsOnce_thenSucceeds() {
        String key = newKey();
        String payload = "{\"amount\":7,\"fault\":\"forbidden:1\"}";

        assertThat(charge(key, payload).statusCode()).isEqualTo(403);
        assertThat(charge(key, payload).statusCode()).isEqualTo(200);
        assertThat(effects(key)).isEqualTo(1);
    }

    @Test
    void unknownFault_isRefusedWith400NamingIt() {
        HttpResponse<String> response = charge(newKey(), "{\"amount\":1,\"fault\":\"meteor_strike\"}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("meteor_strike");
    }

    @Test
    void nonJsonBody_isRefusedWith400() {
        HttpResponse<String> response = charge(newKey(), "amount=1");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("JSON object");
    }

    @Test
    void timeoutAfterApply_appliesTheEffect_whileTheClientTimesOut() {
        String key = newKey();
        String payload = "{\"amount\":12,\"fault\":\"timeout_after_apply:1\"}";

        assertClientTimesOut(key, payload);

        assertThat(effects(key)).isEqualTo(1);
        HttpResponse<String> lookup = lookup(key);
        assertThat(lookup.statusCode()).isEqualTo(200);
        assertThat(lookup.body()).contains("\"applied\":true").contains(key).endsWith(",\"effects\":1}");
        HttpResponse<String> retry = charge(key, payload);
        assertThat(retry.statusCode()).isEqualTo(200);
        assertThat(retry.headers().firstValue("Idempotent-Replayed")).contains("true");
        assertThat(effects(key)).isEqualTo(1);
    }

    @Test
    void timeoutBeforeApply_stallsWithoutApplying() {
        String key = newKey();

        assertClientTimesOut(key, "{\"amount\":4,\"fault\":\"timeout_before_apply:1\"}");

        assertThat(effects(key)).isZero();
        assertThat(lookup(key).statusCode()).isEqualTo(404);
        assertThat(lookup(key).body()).isEqualTo("{\"applied\":false,\"effects\":0}");
    }

    @Test
    void aLostAnswer_isHeldPastTheRequestTimeoutTheClientAnnounces_evenAboveTheStall() {
        String key = newKey();
        Duration announced = STALL.plusMillis(500);

        assertThatThrownBy(() -> send(chargeRequest(key, "{\"amount\":5,\"fault\":\"timeout_after_apply:1\"}")
                .header("Request-Timeout-Ms", Long.toString(announced.toMillis())).timeout(announced).build()))
                .isInstanceOf(HttpTimeoutException.class);

        assertThat(effects(key)).isEqualTo(1);
    }

    @Test
    void stoppingTheService_dropsAHeldAnswerAtOnce() throws Exception {
        DemoToolServer stopping = DemoToolServer.start(ns.database());
        String key = newKey();
        var call = http.sendAsync(HttpRequest.newBuilder(stopping.chargeEndpoint())
                .header("Idempotency-Key", key)
                .header("Request-Timeout-Ms", "60000")
                .POST(HttpRequest.BodyPublishers.ofString("{\"amount\":6,\"fault\":\"timeout_after_apply:1\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        await().atMost(Duration.ofSeconds(5)).until(() -> effects(key) == 1);

        long started = System.nanoTime();
        stopping.close();

        // close() waits up to 2 s for its threads: a hold that ignored the interrupt would take all of it.
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
        assertThatThrownBy(() -> call.get(5, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
    }

    @Test
    void lookup_answersByIdempotencyKey() throws Exception {
        String key = newKey();
        JsonNode charged = json.readTree(charge(key, "{\"amount\":9}").body());

        HttpResponse<String> found = lookup(key);
        HttpResponse<String> missing = lookup(newKey());

        assertThat(found.statusCode()).isEqualTo(200);
        JsonNode body = json.readTree(found.body());
        assertThat(body.get("applied").asBoolean()).isTrue();
        assertThat(body.get("result")).isEqualTo(charged);
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(json.readTree(missing.body()).get("applied").asBoolean()).isFalse();
    }

    @Test
    void lookupDown_answers503ForTheFirstNLookupsOfTheKey() {
        String key = newKey();
        assertClientTimesOut(key, "{\"amount\":2,\"fault\":\"timeout_after_apply:1;lookup_down:2\"}");

        assertThat(lookup(key).statusCode()).isEqualTo(503);
        assertThat(lookup(key).statusCode()).isEqualTo(503);
        assertThat(lookup(key).statusCode()).isEqualTo(200);
        assertThat(lookup(newKey()).statusCode()).isEqualTo(404);
    }

    @Test
    void concurrentCallsWithOneKey_applyExactlyOnce() throws Exception {
        String key = newKey();
        List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            calls.add(http.sendAsync(chargeRequest(key, "{\"amount\":1}").build(), HttpResponse.BodyHandlers.ofString()));
        }

        for (var call : calls) {
            assertThat(call.get().statusCode()).isEqualTo(200);
        }
        assertThat(effects(key)).isEqualTo(1);
        assertThat(callStatuses(key)).hasSize(12);
    }

    private static String newKey() {
        return "op-" + UUID.randomUUID().toString().replace("-", "");
    }

    private static HttpRequest.Builder chargeRequest(String key, String body) {
        return HttpRequest.newBuilder(tools.chargeEndpoint())
                .header("Idempotency-Key", key)
                .header("X-Operation-Id", "run-1:charge:0")
                .header("X-Attempt", "1")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    private static HttpResponse<String> charge(String key, String body) {
        try {
            return send(chargeRequest(key, body).build());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static HttpResponse<String> lookup(String key) {
        try {
            return send(HttpRequest.newBuilder(URI.create(tools.lookupEndpoint() + key)).GET().build());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static HttpResponse<String> send(HttpRequest request) throws IOException {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private static long effects(String key) {
        return ns.database().jdbc().queryLong("SELECT count(*) FROM demo_tool_effects WHERE idempotency_key = ?", key);
    }

    private static List<Integer> callStatuses(String key) {
        Jdbc jdbc = ns.database().jdbc();
        return jdbc.query("SELECT http_status FROM demo_tool_calls WHERE idempotency_key = ? ORDER BY id",
                row -> row.getInt(1), key);
    }

    /** Sends the charge and gives up after {@link #CLIENT_TIMEOUT}, as a client does: no answer came by then. */
    private static void assertClientTimesOut(String key, String payload) {
        assertThatThrownBy(() -> send(chargeRequest(key, payload).timeout(CLIENT_TIMEOUT).build()))
                .isInstanceOf(HttpTimeoutException.class);
    }
}
