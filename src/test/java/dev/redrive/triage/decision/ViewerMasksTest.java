package dev.redrive.triage.decision;

import dev.redrive.testing.OsCommands;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.redrive.demo.tools.DemoToolSchema;
import dev.redrive.health.QueueHealthReader;
import dev.redrive.report.IncidentReport;
import dev.redrive.triage.redaction.Redactor;
import dev.redrive.report.ReportFormat;
import dev.redrive.report.ReportService;
import dev.redrive.store.Jdbc;
import dev.redrive.store.Jdbc.Json;
import dev.redrive.store.StoreException;
import dev.redrive.testing.DatabaseLogin;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.DeadLetterFixture;
import dev.redrive.triage.DeadLetterFixture.Created;
import dev.redrive.triage.detail.EntryDetailsLoader;
import dev.redrive.triage.detail.OperationDetails;
import dev.redrive.triage.detail.OperationDetailsLoader;
import dev.redrive.triage.query.DlqFilter;
import dev.redrive.triage.query.DlqRow;
import dev.redrive.triage.query.JdbcDlqQueries;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A viewer login reads no secret, not even with plain SQL: the raw columns are refused to it, the masked views show
 * every row with card numbers, passwords at any depth, bearer tokens and key=value secrets masked, and the triage read
 * paths (DLQ page, details, report, health) work for it on those views. An operator keeps reading the raw rows.
 */
class ViewerMasksTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    /** Where secrets land, table by table: what a viewer must never read as stored. */
    private static final Map<String, List<String>> SECRET_COLUMNS = Map.ofEntries(
            Map.entry("operations", List.of("payload", "result")),
            Map.entry("attempts", List.of("error_message")),
            Map.entry("dlq_entries", List.of("error_message", "attempt_history", "delivery_history", "raw_message",
                    "payload", "decision_reason")),
            Map.entry("reconciliations", List.of("evidence", "result")),
            Map.entry("redrive_commands", List.of("reason", "preconditions")),
            Map.entry("audit_log", List.of("reason", "details")),
            Map.entry("runs", List.of("status_reason")),
            Map.entry("approvals", List.of("revoke_reason")),
            Map.entry("demo_tool_calls", List.of("body")),
            Map.entry("demo_tool_effects", List.of("result")),
            Map.entry("decision_requests", List.of("selection", "options", "reason", "reject_reason", "result")),
            Map.entry("redrive_batches", List.of("selection", "reason", "error")),
            Map.entry("redrive_batch_items", List.of("message")));

    private static final List<String> SECRETS = List.of("hunter2", "4111 1111 1111 1111", "4111111111111111",
            "sk_live_51", "eyJsecret", "tok_9");
    private static final String PAYLOAD = """
            {"amount":10,"card_number":"4111 1111 1111 1111","customer":{"auth":{"password":"hunter2"}},
             "note":"card 4111111111111111"}""";
    private static final String ERROR = "ledger refused: Authorization: Bearer eyJsecret, api_key=sk_live_51";

    private static DatabaseLogin viewer;
    private static DatabaseLogin operator;
    private static Created op;

    @BeforeAll
    static void start() {
        DemoToolSchema.migrate(ns.database()); // the demo's tables are masked too, once the demo creates them
        DeadLetterFixture fixture = DeadLetterFixture.withChargeTool(ns.database());
        op = fixture.deadLettered("run-secret", "charge").payload(PAYLOAD).message(ERROR).create();
        Created commanded = fixture.deadLettered("run-secret", "refund").payload(PAYLOAD).message(ERROR).create();
        secretsEverywhereElse(ns.database().jdbc(), commanded);
        viewer = DatabaseLogin.viewer(ns, "vera");
        operator = DatabaseLogin.operator(ns, "otto");
    }

    /** Puts a secret in every other column where one can land: results, evidence, reasons, history, the demo ledger. */
    private static void secretsEverywhereElse(Jdbc admin, Created commanded) {
        admin.update("UPDATE operations SET result = CAST(? AS jsonb) WHERE operation_id = ?",
                "{\"receipt\":\"Bearer eyJsecret\"}", commanded.operationId());
        admin.update("UPDATE runs SET status_reason = 'paused: password=hunter2' WHERE run_id = 'run-secret'");
        admin.update("""
                UPDATE dlq_entries SET decision_reason = 'secret=tok_9', delivery_history = CAST(? AS jsonb) WHERE id = ?""",
                "[{\"consumer\":\"w-1\",\"error\":\"crashed on token=tok_9\"}]", op.dlqEntryId());
        admin.update("""
                INSERT INTO approvals (approval_id, scope, granted_by, revoked_at, revoked_by, revoke_reason)
                VALUES ('appr-secret', 'demo.charge', 'carol', now(), 'carol', 'leaked api_key=sk_live_51')""");
        admin.update("""
                INSERT INTO reconciliations (operation_id, outcome, source, evidence, result, recorded_by)
                VALUES (?, 'UNKNOWN', 'OPERATOR', 'ledger shows 4111111111111111 and token=tok_9', ?, 'carol')""",
                commanded.operationId(), new Json("{\"password\":\"hunter2\"}"));
        admin.update("""
                INSERT INTO redrive_commands (command_id, operation_id, dlq_entry_id, operator, reason, from_attempt,
                                              to_attempt, target_schema_version, preconditions, status)
                VALUES (?, ?, ?, 'carol', 'retry with Authorization: Bearer eyJsecret', 3, 4, '1', ?, 'FAILED')""",
                UUID.randomUUID(), commanded.operationId(), commanded.dlqEntryId(),
                new Json("{\"facts\":{\"api_key\":\"sk_live_51\"}}"));
        admin.update("""
                INSERT INTO audit_log (actor, action, operation_id, dlq_entry_id, reason, details)
                VALUES ('carol', 'NOTE', ?, ?, 'customer said password=hunter2', ?)""",
                commanded.operationId(), commanded.dlqEntryId(), new Json("{\"token\":\"tok_9\"}"));
        String request = """
                INSERT INTO decision_requests (kind, targets, selection, options, reason, covered_by, requested_by,
                                               requested_at, expires_at)
                VALUES ('CORRECT', '[]', 'entries matching --text password=hunter2', ?, ?, 'four-eyes covers corrections',
                        'carol', now(), now() + interval '1 day')
                RETURNING id""";
        long rejected = admin.queryLong(request,
                new Json(JsonNodeFactory.instance.objectNode().put("payload", PAYLOAD).toString()), ERROR);
        admin.update("UPDATE decision_requests SET state = 'REJECTED', decided_by = 'dave', decided_at = now(), "
                + "reject_reason = 'secret=tok_9' WHERE id = ?", rejected);
        long approved = admin.queryLong(request, new Json("{\"payload\":\"{}\"}"), ERROR);
        admin.update("UPDATE decision_requests SET state = 'APPROVED', decided_by = 'dave', decided_at = now() "
                + "WHERE id = ?", approved);
        admin.update("UPDATE decision_requests SET result = CAST(? AS jsonb) WHERE id = ?",
                "{\"message\":\"charged with token=tok_9\"}", approved);
        admin.update("INSERT INTO demo_tool_calls (tool, idempotency_key, http_status, body) VALUES ('demo.charge', ?, 200, ?)",
                op.idempotencyKey(), new Json(PAYLOAD));
        admin.update("""
                INSERT INTO redrive_batches (kind, selection, operator, reason, chunk_size, total, state, error)
                VALUES ('REDRIVE', ?, 'carol', 'ledger back, api_key=sk_live_51', 100, 2, 'FAILED',
                        'refused: password=hunter2')""", new Json("{\"filter\":{\"text\":\"token=tok_9\"}}"));
        admin.update("INSERT INTO redrive_batch_items (batch_id, operation_id, decision, message) "
                + "SELECT max(id), ?, 'ALREADY_DECIDED', 'already decided by bob (DISCARDED: password=hunter2)' "
                + "FROM redrive_batches", op.operationId());
        admin.update("INSERT INTO demo_tool_effects (idempotency_key, tool, result) VALUES (?, 'demo.charge', ?)",
                op.idempotencyKey(), new Json("{\"charge_id\":\"ch_1\",\"card_number\":\"4111111111111111\"}"));
    }

    @AfterAll
    static void stop() {
        viewer.close();
        operator.close();
    }

    @Test
    void everyRawSecretColumn_isRefusedToTheViewer_whileItsOtherColumnsStayReadable() {
        Jdbc asViewer = viewer.database().jdbc();
        SECRET_COLUMNS.forEach((table, columns) -> columns.forEach(column ->
                assertThatThrownBy(() -> asViewer.query("SELECT " + column + " FROM " + ns.name() + "." + table,
                        row -> row.getString(1)))
                        .as(table + "." + column)
                        .isInstanceOf(StoreException.class)
                        .matches(e -> ((StoreException) e).isRefused())));
        assertThatThrownBy(() -> asViewer.query("SELECT * FROM " + ns.name() + ".dlq_entries", row -> row.getString(1)))
                .isInstanceOf(StoreException.class).matches(e -> ((StoreException) e).isRefused());

        assertThat(asViewer.queryLong("SELECT count(*) FROM " + ns.name() + ".dlq_entries WHERE error_class = 'TRANSIENT'"))
                .isEqualTo(2);
    }

    @Test
    void theColumnsRefusedToTheViewer_areExactlyTheSecretOnes() {
        Set<String> refused = new HashSet<>(viewer.database().jdbc().query("""
                SELECT c.relname || '.' || a.attname
                  FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
                 WHERE n.nspname = ? AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
                   AND NOT has_column_privilege(c.oid, a.attnum, 'SELECT')""", row -> row.getString(1), ns.name()));

        Set<String> secret = new HashSet<>();
        SECRET_COLUMNS.forEach((table, columns) -> columns.forEach(column -> secret.add(table + "." + column)));
        assertThat(refused).isEqualTo(secret);
    }

    @Test
    void theMaskedViews_haveEveryColumnOfTheirTables_andShowNoSecret() {
        Jdbc asViewer = viewer.database().jdbc();
        for (String table : SECRET_COLUMNS.keySet()) {
            assertThat(columns(ns.name() + "_masked", table)).as(table).isEqualTo(columns(ns.name(), table));
            String rows = asViewer.queryOne("SELECT string_agg(v::text, ' ') FROM " + ns.name() + "_masked." + table + " v",
                    row -> row.getString(1)).orElseThrow();
            assertThat(rows).as(table).isNotEmpty().doesNotContain(SECRETS);
        }

        String payload = asViewer.queryOne("SELECT payload::text FROM " + ns.name() + "_masked.operations WHERE operation_id = ?",
                row -> row.getString(1), op.operationId()).orElseThrow();
        assertThat(payload).contains("\"card_number\": \"[redacted]\"", "\"password\": \"[redacted]\"",
                "\"note\": \"card [redacted]\"", "\"amount\": 10");
        String error = asViewer.queryOne("SELECT error_message FROM " + ns.name() + "_masked.dlq_entries WHERE id = ?",
                row -> row.getString(1), op.dlqEntryId()).orElseThrow();
        assertThat(error).isEqualTo("ledger refused: Authorization: [redacted], api_key=[redacted]");
    }

    /** The README's psql session: the viewer's own login in psql, no Redrive code between it and the rows. */
    @Test
    void inPsql_theViewerIsRefusedTheStoredCardNumber_andReadsItOnlyMasked() throws Exception {
        OsCommands.assumeInstalled("README's psql session as a viewer", "psql");
        String card = "SELECT payload->>'card_number' FROM %s.%s WHERE id = " + op.dlqEntryId();

        Psql raw = psql(viewer, card.formatted(ns.name(), "dlq_entries"));
        Psql everything = psql(viewer, "SELECT * FROM " + ns.name() + ".operations");
        Psql masked = psql(viewer, card.formatted(ns.name() + "_masked", "dlq_entries"));
        Psql asOperator = psql(operator, card.formatted(ns.name(), "dlq_entries"));

        assertThat(raw.exit()).isNotZero();
        assertThat(raw.output()).contains("permission denied for table dlq_entries").doesNotContain(SECRETS);
        assertThat(everything.exit()).isNotZero();
        assertThat(everything.output()).contains("permission denied for table operations").doesNotContain(SECRETS);
        assertThat(masked.exit()).as(masked.output()).isZero();
        assertThat(masked.output().strip()).isEqualTo(Redactor.MASK);
        assertThat(asOperator.output().strip()).isEqualTo("4111 1111 1111 1111");
    }

    private record Psql(int exit, String output) {
    }

    /** {@code psql -c QUERY} as {@code login}, unaligned and without a header: what it printed and how it exited. */
    private static Psql psql(DatabaseLogin login, String query) throws Exception {
        URI server = URI.create(login.config().pgUrl().substring("jdbc:".length()));
        ProcessBuilder builder = new ProcessBuilder("psql", "-X", "-A", "-t", "-h", server.getHost(),
                "-p", String.valueOf(server.getPort() < 0 ? 5432 : server.getPort()), "-U", login.login(),
                "-d", server.getPath().substring(1), "-c", query).redirectErrorStream(true);
        builder.environment().put("PGPASSWORD", login.config().pgPassword());
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("psql ended").isTrue();
        return new Psql(process.exitValue(), output);
    }

    @Test
    void theTriageReadPaths_workForTheViewer_onRowsTheDatabaseMasked() {
        assertThat(viewer.database().readsMasked()).isTrue();
        JdbcDlqQueries queries = new JdbcDlqQueries(viewer.database());

        List<DlqRow> page = queries.firstPage(DlqFilter.builder().runId("run-secret").build(), 50).rows();
        assertThat(page).hasSize(2).allSatisfy(row ->
                assertThat(row.errorMessage()).isEqualTo("ledger refused: Authorization: [redacted], api_key=[redacted]"));
        assertThat(queries.groups(DlqFilter.none())).singleElement()
                .satisfies(group -> assertThat(group.sampleMessage()).doesNotContain(SECRETS));
        assertThat(queries.count(DlqFilter.none()).value()).isEqualTo(2);

        OperationDetails details = new OperationDetailsLoader(viewer.database()).require(op.operationId());
        JsonNode payload = details.operation().payload();
        assertThat(payload.path("card_number").asText()).isEqualTo(Redactor.MASK);
        assertThat(payload.path("customer").path("auth").path("password").asText()).isEqualTo(Redactor.MASK);
        assertThat(details.attempts()).allSatisfy(attempt -> assertThat(attempt.errorMessage()).doesNotContain(SECRETS));
        assertThat(details.dlqEntries().get(0).rawMessage().toString()).doesNotContain(SECRETS);
        assertThat(details.run().statusReason()).isEqualTo("paused: password=[redacted]");
        assertThat(new EntryDetailsLoader(viewer.database()).require(op.dlqEntryId()).entry().decisionReason())
                .isEqualTo("secret=[redacted]");

        ReportService reports = new ReportService(viewer.database(), Clock.systemUTC(), Redactor.defaults());
        assertThat(render(reports, reports.operation(op.operationId()))).contains(op.operationId()).doesNotContain(SECRETS);
        assertThat(render(reports, reports.entry(op.dlqEntryId()))).doesNotContain(SECRETS);
        assertThat(new QueueHealthReader(viewer.database(), ns.redis(), Clock.systemUTC()).read().dlqOpen()).isEqualTo(2);
    }

    @Test
    void aViewersSearch_findsWhatTheMaskedTextSays_andNoSecret() {
        DlqFilter bySecret = DlqFilter.builder().text("sk_live_51").build();
        DlqFilter byWords = DlqFilter.builder().text("ledger refused").build();

        assertThat(new JdbcDlqQueries(viewer.database()).firstPage(bySecret, 50).rows()).isEmpty();
        assertThat(new JdbcDlqQueries(viewer.database()).firstPage(byWords, 50).rows()).hasSize(2);
        assertThat(new JdbcDlqQueries(operator.database()).firstPage(bySecret, 50).rows()).hasSize(2);
    }

    @Test
    void anOperator_readsTheRawRows_thatDecisionsNeed() {
        assertThat(operator.database().readsMasked()).isFalse();
        assertThat(ns.database().readsMasked()).isFalse();

        OperationDetails details = new OperationDetailsLoader(operator.database()).require(op.operationId());

        assertThat(details.operation().payload().path("card_number").asText()).isEqualTo("4111 1111 1111 1111");
        assertThat(details.dlqEntries().get(0).errorMessage()).isEqualTo(ERROR);
    }

    private static List<String> columns(String schema, String table) {
        return ns.database().jdbc().query("""
                SELECT a.attname FROM pg_attribute a
                 WHERE a.attrelid = CAST(? AS regclass) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum""",
                row -> row.getString(1), schema + "." + table);
    }

    private static String render(ReportService reports, IncidentReport report) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        reports.write(report, ReportFormat.JSON, out);
        return out.toString(StandardCharsets.UTF_8);
    }
}
