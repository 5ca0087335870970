package dev.redrive.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.detail.OperationDetailViewModel;
import dev.redrive.console.detail.TracerLinks;
import dev.redrive.envelope.EnvelopeCodec;
import dev.redrive.identity.OperationId;
import dev.redrive.report.IncidentReport;
import dev.redrive.triage.redaction.Redactor;
import dev.redrive.report.ReportFormat;
import dev.redrive.report.ReportService;
import dev.redrive.secret.SecretScanner;
import dev.redrive.store.Database;
import dev.redrive.store.Jdbc.Json;
import dev.redrive.store.deadletter.DeadLetterStore;
import dev.redrive.testing.DatabaseLogin;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.detail.EntryDetailsLoader;
import dev.redrive.triage.detail.OperationDetailsLoader;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.worker.Worker;
import dev.redrive.worker.client.WorkerClient;
import dev.redrive.worker.tool.InvalidInputFailure;
import dev.redrive.worker.tool.Tool;
import dev.redrive.worker.tool.ToolCall;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.text.PDFTextStripper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A corpus of secret shapes, each sent the real way (a dispatch whose tool refuses it, quoting it; a message whose
 * payload is not JSON; payloads over the 64 KiB a DLQ entry keeps of a raw message, cut inside a secret), then read on
 * every surface a viewer reaches: the masked views with plain SQL, {@code op show}, {@code op show --entry},
 * {@code dlq list --text}, the console's detail, reports in every format, the worker's log and its metric labels. No
 * surface may show a secret, to a viewer or to the owner.
 */
class LeakCorpusTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    /** One way a secret appears in text, with what of it must never be shown. */
    private record Shape(String name, String text, List<String> secrets) {
        static Shape of(String name, String template, String secret) {
            return new Shape(name, template.formatted(secret), List.of(secret));
        }
    }

    private static final List<Shape> SHAPES = List.of(
            Shape.of("key=value", "login refused: password=%s (retry)", "Lk01pw9Qz7"),
            Shape.of("quoted JSON pair", "upstream said {\"reason\": \"bad\", \"password\": \"%s\"} later", "Lk02quoted"),
            Shape.of("single-quoted key and value", "config {'api_key': '%s'}", "Lk03single"),
            Shape.of("authorization header", "sent Authorization: Bearer %s to the ledger", "Lk04bearer.x-y"),
            Shape.of("bare bearer token", "proxy forwarded bearer %s downstream", "Lk05tokenAbc"),
            Shape.of("basic credentials", "proxy sent Basic %s", "TGswNnNlY3JldDpodW50ZXI="),
            Shape.of("token scheme", "token: Token %s", "Lk07scheme"),
            Shape.of("x-api-key header", "headers x-api-key: %s accept: */*", "Lk08header"),
            Shape.of("query parameter", "GET /v1/charges?apiKey=%s&page=2 -> 401", "Lk09query"),
            Shape.of("camel-case key", "session accessToken=%s; expired", "Lk10camel"),
            Shape.of("client secret", "oauth client_secret=\"%s\" refused", "Lk11client"),
            Shape.of("environment variable", "DB_PASSWORD: %s", "Lk12envvar"),
            Shape.of("JSON held as text", "body was {\\\"password\\\":\\\"%s\\\",\\\"n\\\":1}", "Lk13escaped"),
            Shape.of("bracketed value", "secret=[%s, 2]", "Lk14bracket"),
            Shape.of("card in groups", "card %s declined", "4111 1111 1111 1111"),
            Shape.of("card with dashes", "card %s declined", "5500-0000-0000-0004"),
            Shape.of("card alone", "charge of 10 on %s failed", "4242424242424242"),
            Shape.of("stripe live key", "key %s revoked", "sk_live_Lk18abcdef"),
            Shape.of("stripe test key", "used %s", "sk_test_Lk19abcdef"),
            Shape.of("github token", "clone with %s failed", "ghp_Lk20abcdefghijklmnop"),
            Shape.of("slack token", "slack said invalid_auth for %s", "xoxb-Lk21-123456-abcdef"),
            Shape.of("aws access key", "aws: %s is not authorized", "AKIALK22QWERTYUIOPAS"),
            Shape.of("jwt", "session %s expired", "eyJhbGciOiJIUzI1NiJ9.eyJMazIzIjoiMSJ9.Lk23signature"),
            new Shape("pem private key",
                    "key: -----BEGIN RSA PRIVATE KEY-----\nLk24MIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY----- done",
                    List.of("Lk24MIIEowIBAAKCAQEA")),
            new Shape("pem private key cut open", "-----BEGIN OPENSSH PRIVATE KEY-----\nLk25b3BlbnNzaC1rZXk",
                    List.of("Lk25b3BlbnNzaC1rZXk")),
            Shape.of("redis uri", "cannot reach redis://:%s@cache:6379", "Lk26redispw"),
            Shape.of("postgres url", "cannot reach postgres://app:%s@db/app", "Lk27pgpw"),
            Shape.of("gitlab token", "gitlab refused %s", "glpat-Lk28abcdefgh"),
            Shape.of("google api key", "maps key %s over quota", "AIzaLk29abcdefghijklmnopqrstuvwxyz12"),
            Shape.of("quoted value cut open", "login failed, password: \"%s", "Lk30cutopen"),
            Shape.of("malformed JSON, unquoted value", "{\"api_key\": %s}", "sk_live_Lk31X"),
            Shape.of("card number field", "{\"card_number\": \"%s\", \"amount\": 3", "378282246310005"),
            Shape.of("digest credentials", "authorization=Digest %s", "Lk33digest"),
            Shape.of("openai key", "openai refused %s", "sk-proj-Lk34abcdefghijklmnopqrst"),
            Shape.of("npm token", "npm publish with %s", "npm_Lk35abcdefghijklmnopqrstuvwxyz0123"),
            Shape.of("webhook secret", "signature check with %s failed", "whsec_Lk36abcdef"),
            Shape.of("camel-case password in quotes", "userPassword='%s'", "Lk37camelq"),
            Shape.of("upper case key with spaces", "PASSWORD = %s", "Lk38upper"),
            Shape.of("array value", "{\"password\": [\"%s\", \"x\"]", "Lk39array"),
            Shape.of("object value", "{\"secret\": {\"inner\": \"%s\"}", "Lk40object"));

    /** What cut secrets are made of; its first characters must never be shown. */
    private static final String UNIT = "Qx7Wv3Zk9P";
    private static final String CUT_MARK = UNIT.substring(0, 6);

    private static final List<String> SECRETS = new ArrayList<>();

    private static DatabaseLogin viewer;
    private static final MeterRegistry METERS = new SimpleMeterRegistry();
    private static final ByteArrayOutputStream LOG = new ByteArrayOutputStream();
    private static List<String> operations;
    private static List<Long> entries;

    /** A tool that refuses every payload, quoting what it was sent: as a remote system's error answers often do. */
    private record Quoting(String name) implements Tool {
        @Override
        public String schemaVersion() {
            return "1";
        }

        @Override
        public String execute(ToolCall call) throws InvalidInputFailure {
            JsonNode payload = TriageJson.parse(call.payload());
            throw new InvalidInputFailure("refused", "upstream refused: " + payload.path("note").asText()
                    + " / we sent " + call.payload());
        }
    }

    @BeforeAll
    static void everyShapeIsSentTheRealWay_andDeadLettered() {
        SHAPES.forEach(shape -> SECRETS.addAll(shape.secrets()));
        SECRETS.add(CUT_MARK);
        WorkerClient client = new WorkerClient(ns.database(), ns.redis(), Clock.systemUTC());
        PrintStream console = System.err;
        System.setErr(new PrintStream(new Tee(console, LOG), true, StandardCharsets.UTF_8));
        Worker worker = Worker.builder(ns.database(), ns.redis()).consumerName("leaky").tool(new Quoting("leaky.tool"))
                .claimInterval(Duration.ofMillis(200)).meterRegistry(METERS).build().start();
        int sent = 0;
        try {
            for (int i = 0; i < SHAPES.size(); i++) {
                Shape shape = SHAPES.get(i);
                ObjectNode payload = JsonNodeFactory.instance.objectNode().put("amount", 1).put("note", shape.text());
                client.dispatch(client.newDispatch(new OperationId("leak", "quoted-" + i, 0), "leaky.tool", "1",
                        payload.toString(), "trace-leak-" + i, null, null));
                publishRaw(client, new OperationId("leak", "raw-" + i, 0), shape.text(), Map.of());
                sent += 2;
            }
            String cut = UNIT.repeat(8_000);
            // a JSON payload over the 64 KiB kept of a raw message, cut inside a secret's value
            client.dispatch(client.newDispatch(new OperationId("leak", "cut-pair", 0), "leaky.tool", "1",
                    JsonNodeFactory.instance.objectNode().put("amount", 1).put("password", cut).toString(), null, null,
                    null));
            // ... inside JSON held as text in a field
            client.dispatch(client.newDispatch(new OperationId("leak", "cut-nested", 0), "leaky.tool", "1",
                    JsonNodeFactory.instance.objectNode().put("amount", 1)
                            .put("body", JsonNodeFactory.instance.objectNode().put("token", cut).toString()).toString(),
                    null, null, null));
            // ... inside an API key in a field no name gives away
            client.dispatch(client.newDispatch(new OperationId("leak", "cut-key", 0), "leaky.tool", "1",
                    JsonNodeFactory.instance.objectNode().put("amount", 1).put("note", "charged with sk_live_" + cut)
                            .toString(), null, null, null));
            // a payload that is not JSON, over 64 KiB, cut inside the secret; and one mostly of one character
            publishRaw(client, new OperationId("leak", "cut-raw", 0), "password=" + cut, Map.of());
            publishRaw(client, new OperationId("leak", "cut-one-char", 0),
                    "{\"token\":\"" + UNIT + "a".repeat(70_000) + UNIT, Map.of());
            // a message with a field of its own that names a secret
            publishRaw(client, new OperationId("leak", "own-field", 0), "{\"amount\":1}",
                    Map.of("authorization", "Bearer " + UNIT, "tool", ""));
            sent += 6;
            int expected = sent;
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> ns.database().jdbc().queryLong("SELECT count(*) FROM dlq_entries") == expected);
        } finally {
            worker.shutdown().join();
            System.setErr(console);
        }
        operations = ns.database().jdbc().query("SELECT operation_id FROM operations ORDER BY 1", row -> row.getString(1));
        entries = ns.database().jdbc().query("SELECT id FROM dlq_entries ORDER BY 1", row -> row.getLong(1));
        viewer = DatabaseLogin.viewer(ns, "leakview");
    }

    /** A message added to the dispatch stream as a runtime without Redrive's client would: nothing checks it first. */
    private static void publishRaw(WorkerClient client, OperationId id, String payload, Map<String, String> extra) {
        Map<String, String> fields = new LinkedHashMap<>(new EnvelopeCodec().encode(
                client.newDispatch(id, "leaky.tool", "1", payload, "trace-raw", null, null)));
        fields.putAll(extra);
        fields.values().removeIf(String::isEmpty);
        ns.redis().sync().xadd(ns.redis().keys().dispatch(), fields);
    }

    @AfterAll
    static void stop() {
        if (viewer != null) {
            viewer.close();
        }
    }

    // ---- the shapes themselves ---------------------------------------------------------------------------------

    @Test
    void everyShape_isMaskedByEveryMaskingFunction_alone_andAsAJsonString() {
        Redactor redactor = Redactor.defaults();
        Map<String, String> shown = new LinkedHashMap<>();
        for (Shape shape : SHAPES) {
            String json = JsonNodeFactory.instance.objectNode().put("note", shape.text()).toString();
            shown.put(shape.name() + " / SecretScanner", SecretScanner.defaults().mask(shape.text()));
            shown.put(shape.name() + " / Redactor", redactor.redactText(shape.text()));
            shown.put(shape.name() + " / Redactor, JSON", redactor.redactText(json));
            shown.put(shape.name() + " / mask_secret_text", ns.database().jdbc().queryOne("SELECT mask_secret_text(?)",
                    row -> row.getString(1), shape.text()).orElseThrow());
            shown.put(shape.name() + " / mask_secrets", ns.database().jdbc().queryOne(
                    "SELECT mask_secrets(CAST(? AS jsonb))::text", row -> row.getString(1), new Json(json)).orElseThrow());
        }
        assertThat(SHAPES).hasSizeGreaterThanOrEqualTo(30);
        assertNoSecretIn(shown);
    }

    // ---- the surfaces ------------------------------------------------------------------------------------------

    @Test
    void theMaskedViews_readWithPlainSqlAsAViewer_showNoSecret() {
        List<String> tables = ns.database().jdbc().query(
                "SELECT DISTINCT table_name FROM viewer_masked_columns WHERE to_regclass(? || '.' || table_name) IS NOT NULL",
                row -> row.getString(1), ns.name());
        Map<String, String> shown = new LinkedHashMap<>();
        for (String table : tables) {
            shown.put(table, viewer.database().jdbc().queryOne("SELECT coalesce(string_agg(v::text, E'\\n'), '') FROM "
                    + ns.name() + "_masked." + table + " v", row -> row.getString(1)).orElseThrow());
        }
        assertThat(shown.get("dlq_entries")).contains("[redacted]", "payload is not JSON", "upstream refused");
        assertThat(shown.get("attempts")).contains("upstream refused");
        assertNoSecretIn(shown);
    }

    @Test
    void opShow_andOpShowEntry_asTheOwnerAndAsAViewer_showNoSecret() {
        Map<String, String> shown = new LinkedHashMap<>();
        for (String operation : operations) {
            shown.put("op show " + operation, ok(CliRun.in(ns, "op", "show", operation)));
            shown.put("op show " + operation + " (viewer)", ok(CliRun.as(viewer, ns, "op", "show", operation)));
            shown.put("op show " + operation + " --json (viewer)",
                    ok(CliRun.as(viewer, ns, "op", "show", operation, "--json")));
        }
        for (long entry : entries) {
            String id = String.valueOf(entry);
            shown.put("op show --entry " + id, ok(CliRun.in(ns, "op", "show", "--entry", id)));
            shown.put("op show --entry " + id + " --json", ok(CliRun.in(ns, "op", "show", "--entry", id, "--json")));
            shown.put("op show --entry " + id + " (viewer)", ok(CliRun.as(viewer, ns, "op", "show", "--entry", id)));
        }
        assertThat(String.join("\n", shown.values())).contains("raw message", "[redacted]", "_truncated");
        assertNoSecretIn(shown);
    }

    @Test
    void dlqList_byText_andItsGroups_asTheOwnerAndAsAViewer_showNoSecret() {
        Map<String, String> shown = new LinkedHashMap<>();
        for (String words : List.of("refused", "JSON", "leaky")) {
            shown.put("dlq list --text " + words, ok(CliRun.in(ns, "dlq", "list", "--text", words, "--limit", "1000")));
            shown.put("dlq list --text " + words + " (viewer)",
                    ok(CliRun.as(viewer, ns, "dlq", "list", "--text", words, "--limit", "1000")));
            shown.put("dlq list --text " + words + " --json (viewer)",
                    ok(CliRun.as(viewer, ns, "dlq", "list", "--text", words, "--limit", "1000", "--json")));
        }
        shown.put("dlq groups", ok(CliRun.in(ns, "dlq", "groups")));
        shown.put("dlq groups (viewer)", ok(CliRun.as(viewer, ns, "dlq", "groups", "--json")));
        assertThat(shown.get("dlq list --text refused")).contains("upstream refused");
        assertNoSecretIn(shown);
    }

    @Test
    void theConsolesDetail_ofEveryOperationAndEntry_showsNoSecret() {
        Map<String, String> shown = new LinkedHashMap<>();
        for (Map.Entry<String, Database> login : logins().entrySet()) {
            Database database = login.getValue();
            OperationDetailViewModel model = new OperationDetailViewModel(new OperationDetailsLoader(database)::require,
                    new EntryDetailsLoader(database)::require, UiExecutor.inline(), Redactor.defaults(), TracerLinks.NONE);
            for (long entry : entries) {
                model.showEntry(entry);
                shown.put("detail of entry " + entry + " as " + login.getKey(), describe(model));
            }
        }
        assertThat(String.join("\n", shown.values())).contains("[redacted]");
        assertNoSecretIn(shown);
    }

    private static String describe(OperationDetailViewModel model) {
        return String.join("\n", model.titleProperty().get(), model.lastErrorProperty().get(),
                model.rawMessageProperty().get(), model.payloadProperty().get(), model.decisionProperty().get(),
                model.claimedOperationProperty().get(), String.valueOf(model.entryProperty().get()),
                String.valueOf(model.detailsProperty().get()), String.valueOf(List.copyOf(model.attempts())),
                String.valueOf(List.copyOf(model.audit())));
    }

    @Test
    void reports_inEveryFormat_asTheOwnerAndAsAViewer_showNoSecret() throws IOException {
        Map<String, String> shown = new LinkedHashMap<>();
        for (Map.Entry<String, Database> login : logins().entrySet()) {
            Database database = login.getValue();
            ReportService reports = new ReportService(database, Clock.systemUTC(), Redactor.defaults());
            for (ReportFormat format : ReportFormat.values()) {
                shown.put("report on every operation, " + format + ", as " + login.getKey(),
                        render(reports, reports.selection(operations), format));
            }
            List<Long> withoutOperation = ns.database().jdbc().query(
                    "SELECT id FROM dlq_entries WHERE operation_id IS NULL OR NOT " + DeadLetterStore.OWN_ENTRY
                            + " ORDER BY id", row -> row.getLong(1));
            for (long entry : withoutOperation) {
                for (ReportFormat format : ReportFormat.values()) {
                    shown.put("report on entry " + entry + ", " + format + ", as " + login.getKey(),
                            render(reports, reports.entry(entry), format));
                }
            }
        }
        assertThat(String.join("\n", shown.values())).contains("upstream refused", "[redacted]");
        assertNoSecretIn(shown);
    }

    private static String render(ReportService reports, IncidentReport report, ReportFormat format)
            throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        reports.write(report, format, out);
        if (format != ReportFormat.PDF) {
            return out.toString(StandardCharsets.UTF_8);
        }
        try (PDDocument document = Loader.loadPDF(out.toByteArray())) {
            // a PDF line breaks where it must; the text is read again without the breaks to find a secret split by one
            String text = new PDFTextStripper().getText(document);
            return text + "\n" + text.replaceAll("\\s+", "");
        }
    }

    @Test
    void theWorkersLog_showsNoSecret() {
        String log = LOG.toString(StandardCharsets.UTF_8);

        assertThat(log).as("the log was captured").contains("dead-lettered as invalid_envelope: payload is not JSON");
        assertNoSecretIn(Map.of("worker log", log));
    }

    @Test
    void theWorkersMetricLabels_showNoSecret() {
        StringBuilder labels = new StringBuilder();
        for (Meter meter : METERS.getMeters()) {
            labels.append(meter.getId().getName()).append(' ').append(meter.getId().getTags()).append('\n');
        }

        assertThat(labels).as("the metrics were recorded").contains("redrive.dead.letters");
        assertNoSecretIn(Map.of("metric labels", labels.toString()));
    }

    // ---- helpers -----------------------------------------------------------------------------------------------

    private static Map<String, Database> logins() {
        Map<String, Database> logins = new LinkedHashMap<>();
        logins.put("owner", ns.database());
        logins.put("viewer", viewer.database());
        return logins;
    }

    private static String ok(CliRun run) {
        assertThat(run.exit()).as(run.err()).isZero();
        return run.out() + run.err();
    }

    /** Every place a secret showed, with a little of the text around it: one failure names them all. */
    private static void assertNoSecretIn(Map<String, String> shown) {
        List<String> leaks = new ArrayList<>();
        shown.forEach((where, text) -> {
            for (String secret : SECRETS) {
                int at = text.indexOf(secret);
                if (at >= 0) {
                    leaks.add(where + " shows " + secret + ": ..."
                            + text.substring(Math.max(0, at - 60), Math.min(text.length(), at + secret.length() + 20))
                            .replace('\n', ' ') + "...");
                }
            }
        });
        assertThat(leaks).as("secrets shown").isEmpty();
    }

    /** Writes to the console and keeps a copy. */
    private static final class Tee extends OutputStream {
        private final OutputStream console;
        private final OutputStream copy;

        Tee(OutputStream console, OutputStream copy) {
            this.console = console;
            this.copy = copy;
        }

        @Override
        public void write(int b) throws IOException {
            console.write(b);
            synchronized (copy) {
                copy.write(b);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            console.write(b, off, len);
            synchronized (copy) {
                copy.write(b, off, len);
            }
        }
    }
}
