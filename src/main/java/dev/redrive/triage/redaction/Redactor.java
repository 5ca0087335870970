package dev.redrive.triage.redaction;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.redrive.secret.SecretScanner;
import dev.redrive.triage.detail.AttemptRecord;
import dev.redrive.triage.detail.AuditEntry;
import dev.redrive.triage.detail.DlqEntryRecord;
import dev.redrive.triage.detail.EntryDetails;
import dev.redrive.triage.detail.OperationDetails;
import dev.redrive.triage.detail.OperationRecord;
import dev.redrive.triage.detail.ReconciliationRecord;
import dev.redrive.triage.detail.RedriveCommandRecord;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.triage.precondition.PreconditionReport;
import dev.redrive.triage.precondition.PreconditionResult;
import dev.redrive.triage.query.DlqRow;
import dev.redrive.triage.query.FingerprintGroup;

import java.io.IOException;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Masks payload fields whose names match a configurable list, wherever a payload is shown: reports, the console, the
 * CLI. A name matches a field when the field's normalised name (snake_case, lower case) equals it, starts with
 * {@code name_} or ends with {@code _name}: {@code token} masks {@code access_token}, {@code api_key} masks
 * {@code x-api-key} and {@code apiKey}. JSON held as text inside a field (a stream entry's {@code payload}) is
 * redacted too. Free text (error messages, evidence, reasons, any other string value) has its secret-looking parts
 * masked: {@code password=...} and {@code Authorization: ...} for the listed names, bearer and basic credentials,
 * private keys, API keys and JWTs by their shape, card numbers (see {@link SecretScanner}); a value cut open, as the
 * 64 KiB limit of a raw message leaves one, is masked to the end of the text. Masking takes time linear in the text.
 */
public final class Redactor {
    /** The mask that replaces a redacted value. */
    public static final String MASK = SecretScanner.MASK;
    /** The names masked by default; the database masks what viewers read by the same list (secret_field_names()). */
    public static final List<String> DEFAULT_FIELDS = SecretScanner.DEFAULT_NAMES;

    // Text that only starts with JSON ("{...} and more") is free text, not the JSON it starts with: the database's
    // masking (V120) reads it the same way.
    private static final ObjectReader JSON_TEXT = TriageJson.mapper().reader()
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    private static final Pattern CAMEL = Pattern.compile("([a-z0-9])([A-Z])");
    private static final Pattern NON_WORD = Pattern.compile("[^a-z0-9]+");
    /** The white space the database trims before it reads text as JSON (btrim's E' \t\n\r\f\v'). */
    private static final String JSON_SPACE = " \t\n\r\f\u000B";

    private final List<String> fields;
    private final SecretScanner secretText;

    private Redactor(List<String> fields) {
        this.fields = fields.stream().map(Redactor::normalise).filter(name -> !name.isEmpty()).distinct().toList();
        this.secretText = SecretScanner.forNames(this.fields);
    }

    /** Masks {@link #DEFAULT_FIELDS}. */
    public static Redactor defaults() {
        return new Redactor(DEFAULT_FIELDS);
    }

    public static Redactor of(List<String> fields) {
        return new Redactor(fields);
    }

    /** Masks {@link #DEFAULT_FIELDS} and the fields of a comma-separated list such as {@code iban,ssn} (null: none). */
    public static Redactor defaultsAnd(String commaSeparated) {
        if (commaSeparated == null || commaSeparated.isBlank()) {
            return defaults();
        }
        return of(Stream.concat(DEFAULT_FIELDS.stream(), Arrays.stream(commaSeparated.split(","))).toList());
    }

    public List<String> fields() {
        return fields;
    }

    /** Whether a field of this name is masked. */
    public boolean masks(String fieldName) {
        String name = normalise(fieldName);
        for (String field : fields) {
            if (name.equals(field) || name.startsWith(field + "_") || name.endsWith("_" + field)) {
                return true;
            }
        }
        return false;
    }

    /** A copy of the JSON with every matching field's value masked; null stays null. */
    public JsonNode redact(JsonNode node) {
        if (node == null) {
            return null;
        }
        JsonNode copy = node.deepCopy();
        return redactInPlace(copy);
    }

    /**
     * A copy of everything known about an operation with every payload, result and raw message redacted, and every
     * error message, evidence and reason masked as free text.
     */
    public OperationDetails redact(OperationDetails details) {
        OperationRecord o = details.operation();
        OperationRecord operation = new OperationRecord(o.operationId(), o.runId(), o.nodeId(), o.logicalAttempt(), o.status(),
                o.attempt(), o.tool(), o.toolSchemaVersion(), o.idempotencyKey(), redact(o.payload()), o.approvalId(),
                o.traceId(), o.correlationId(), o.traceparent(), o.runtimeVersion(), o.leaseOwner(), o.fencingToken(), o.leaseExpiresAt(),
                redact(o.result()), o.sideEffect(), o.lastErrorClass(), o.nextEligibleAt(), o.redriveCommandId(),
                o.dispatchedAt(), o.createdAt(), o.updatedAt());
        List<AttemptRecord> attempts = details.attempts().stream()
                .map(a -> a.withErrorMessage(redactText(a.errorMessage()))).toList();
        List<DlqEntryRecord> entries = details.dlqEntries().stream().map(this::redact).toList();
        List<ReconciliationRecord> reconciliations = details.reconciliations().stream().map(r -> new ReconciliationRecord(
                r.id(), r.outcome(), r.source(), redactText(r.evidence()), redact(r.result()), r.recordedBy(),
                r.recordedAt())).toList();
        List<RedriveCommandRecord> commands = details.redriveCommands().stream().map(c -> new RedriveCommandRecord(
                c.commandId(), c.operationId(), c.dlqEntryId(), c.operator(), redactText(c.reason()), c.issuedAt(),
                c.fromAttempt(), c.toAttempt(), c.targetSchemaVersion(), redact(c.preconditions()), c.status(),
                c.executedAt(), c.completedAt(), c.operatorTraceparent())).toList();
        List<AuditEntry> audit = details.audit().stream().map(this::redact).toList();
        return new OperationDetails(operation, details.run(), attempts, entries, reconciliations, commands, audit,
                details.currentToolSchemaVersion(), details.approval(), details.lineage());
    }

    /** A DLQ entry with its audit trail and its operation (if any), redacted as {@link #redact(OperationDetails)}. */
    public EntryDetails redact(EntryDetails details) {
        return new EntryDetails(redact(details.entry()), details.audit().stream().map(this::redact).toList(),
                details.operation() == null ? null : redact(details.operation()));
    }

    /** A DLQ entry with its raw message, payload and attempt history redacted, its error and reason masked. */
    public DlqEntryRecord redact(DlqEntryRecord e) {
        return new DlqEntryRecord(e.id(), e.dedupKey(), e.operationId(), e.runId(), e.nodeId(), e.logicalAttempt(),
                e.attempt(), e.tool(), e.toolSchemaVersion(), e.idempotencyKey(), e.approvalId(), e.traceId(),
                e.correlationId(), e.runtimeVersion(), e.stream(), e.entryId(), e.deliveryCount(), e.consumer(),
                e.errorClass(), e.errorCode(), redactText(e.errorMessage()), e.errorFingerprint(), e.sideEffect(),
                redact(e.attemptHistory()), redact(e.rawMessage()), redact(e.payload()), e.enteredAt(),
                e.decisionState(), e.decidedBy(), e.decidedAt(), redactText(e.decisionReason()), e.version(),
                e.supersededBy(), e.evidencePurgedAt());
    }

    private AuditEntry redact(AuditEntry a) {
        return new AuditEntry(a.id(), a.at(), a.actor(), a.login(), a.action(), a.operationId(), a.dlqEntryId(), a.commandId(),
                redactText(a.reason()), redact(a.details()));
    }

    /** Precondition results with their explanations and the facts they looked at (evidence, reasons) redacted. */
    public PreconditionReport redact(PreconditionReport report) {
        List<PreconditionResult> results = report.results().stream().map(r -> {
            Map<String, Object> facts = new LinkedHashMap<>();
            r.facts().forEach((name, value) -> facts.put(name, masks(name) && value != null ? MASK
                    : value instanceof String text ? redactText(text) : value));
            return new PreconditionResult(r.id(), r.passed(), redactText(r.explanation()), facts);
        }).toList();
        return new PreconditionReport(report.operationId(), report.dlqEntryId(), report.entryVersion(), report.fromAttempt(),
                report.targetSchemaVersion(), report.checkedAt(), results);
    }

    /** A DLQ list row with its error message masked as free text. */
    public DlqRow redact(DlqRow row) {
        return new DlqRow(row.id(), row.operationId(), row.runId(), row.nodeId(), row.tool(), row.errorClass(),
                redactText(row.errorMessage()), row.fingerprint(), row.sideEffect(), row.decisionState(), row.enteredAt(),
                row.attempt(), row.traceId(), row.correlationId(), row.version(), row.ownEntry());
    }

    /** A fingerprint group with its sample error masked as free text. */
    public FingerprintGroup redact(FingerprintGroup group) {
        return new FingerprintGroup(group.fingerprint(), group.tool(), group.classes(), redactText(group.sampleMessage()),
                group.count(), group.openCount(), group.firstSeen(), group.lastSeen());
    }

    /**
     * Redacts text: JSON text field by field (compacted), any other text by masking its secret-looking parts. Null
     * stays null.
     */
    public String redactText(String text) {
        JsonNode parsed = parseJson(text);
        return parsed == null ? secretText.mask(text) : TriageJson.compact(redactInPlace(parsed));
    }

    private JsonNode redactInPlace(JsonNode node) {
        if (node instanceof ObjectNode object) {
            Iterator<Map.Entry<String, JsonNode>> fieldsOf = object.fields();
            while (fieldsOf.hasNext()) {
                Map.Entry<String, JsonNode> field = fieldsOf.next();
                if (masks(field.getKey())) {
                    field.setValue(TextNode.valueOf(MASK));
                } else {
                    field.setValue(redactInPlace(field.getValue()));
                }
            }
            return object;
        }
        if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                array.set(i, redactInPlace(array.get(i)));
            }
            return array;
        }
        if (node.isTextual()) {
            return TextNode.valueOf(redactText(node.asText()));
        }
        return node;
    }

    private static JsonNode parseJson(String text) {
        if (text == null) {
            return null;
        }
        String trimmed = trim(text);
        if (!(trimmed.startsWith("{") && trimmed.endsWith("}")) && !(trimmed.startsWith("[") && trimmed.endsWith("]"))) {
            return null;
        }
        try {
            return JSON_TEXT.readTree(trimmed);
        } catch (IOException e) {
            return null;
        }
    }

    private static String trim(String text) {
        int from = 0;
        int to = text.length();
        while (from < to && JSON_SPACE.indexOf(text.charAt(from)) >= 0) {
            from++;
        }
        while (to > from && JSON_SPACE.indexOf(text.charAt(to - 1)) >= 0) {
            to--;
        }
        return text.substring(from, to);
    }

    /** snake_case in lower case, without leading or trailing underscores (trimmed by hand: "_+$" would backtrack). */
    private static String normalise(String name) {
        String snake = CAMEL.matcher(name.strip()).replaceAll("$1_$2").toLowerCase(Locale.ROOT);
        String words = NON_WORD.matcher(snake).replaceAll("_");
        int from = 0;
        int to = words.length();
        while (from < to && words.charAt(from) == '_') {
            from++;
        }
        while (to > from && words.charAt(to - 1) == '_') {
            to--;
        }
        return words.substring(from, to);
    }
}
