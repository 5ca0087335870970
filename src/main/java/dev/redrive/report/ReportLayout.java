package dev.redrive.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.report.ReportDocument.Bar;
import dev.redrive.report.ReportDocument.Block;
import dev.redrive.report.ReportDocument.Code;
import dev.redrive.report.ReportDocument.Facts;
import dev.redrive.report.ReportDocument.KeyValue;
import dev.redrive.report.ReportDocument.Marker;
import dev.redrive.report.ReportDocument.Paragraph;
import dev.redrive.report.ReportDocument.Section;
import dev.redrive.report.ReportDocument.Table;
import dev.redrive.report.ReportDocument.Timeline;
import dev.redrive.store.audit.AuditAction;
import dev.redrive.triage.decision.verify.RedriveVerification;
import dev.redrive.triage.detail.AttemptRecord;
import dev.redrive.triage.detail.AuditEntry;
import dev.redrive.triage.detail.DlqEntryRecord;
import dev.redrive.triage.detail.Lineage;
import dev.redrive.triage.detail.OperationDetails;
import dev.redrive.triage.detail.OperationRecord;
import dev.redrive.triage.detail.ReconciliationRecord;
import dev.redrive.triage.detail.RedriveCommandRecord;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.triage.precondition.PreconditionResult;

import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Lays an incident report out as sections, the same for HTML, Markdown and PDF. It opens with the summary a reader at
 * 3 a.m. needs before anything else (what the operation is, where it stands, whether its side effect happened, who
 * decided what and why, and whether the redrive was verified), then the evidence.
 */
final class ReportLayout {
    /** Audit actions that are decisions about the operation (the others record how they were carried out). */
    private static final Set<String> DECISIONS = AuditAction.storedDecisions();

    private final ReportTime time;

    private ReportLayout(ReportTime time) {
        this.time = time;
    }

    /** The report with every moment written in {@code zone}. */
    static ReportDocument of(IncidentReport report, ZoneId zone) {
        ReportTime time = new ReportTime(zone);
        return new ReportLayout(time).layout(report);
    }

    private ReportDocument layout(IncidentReport report) {
        List<Section> sections = new ArrayList<>();
        sections.add(new Section("About this report", 1, List.of(new Facts(List.of(
                kv("scope", report.scope()),
                kv("generated at", report.generatedAt()),
                kv("namespace", report.namespace()),
                kv("redrive version", report.runtimeVersion()),
                kv("operations", report.operations().size() + (report.omitted() > 0 ? " (" + report.omitted() + " more left out)" : "")),
                kv("DLQ entries without an operation", report.entries().size()),
                kv("redacted payload fields", String.join(", ", report.redactedFields())))))));
        if (report.group() != null) {
            sections.add(new ReportOverview(time).group(report.group()));
        }
        if (report.batch() != null) {
            sections.add(new ReportOverview(time).batch(report.batch()));
        }
        for (OperationReport operation : report.operations()) {
            sections.addAll(operation(operation));
        }
        for (EntryReport entry : report.entries()) {
            sections.addAll(entryWithoutOperation(entry));
        }
        return new ReportDocument(report.title(), summary(report), sections, time);
    }

    /** One operation: its facts one per line; several: one row each; entries without an operation: one row each. */
    private List<Block> summary(IncidentReport report) {
        if (report.operations().isEmpty() && !report.entries().isEmpty()) {
            List<List<String>> rows = new ArrayList<>();
            for (EntryReport entry : report.entries()) {
                DlqEntryRecord record = entry.details().entry();
                rows.add(row("DLQ entry " + record.id() + " (no operation)", record.errorClass()
                        + (record.errorCode() == null ? "" : " " + record.errorCode()), record.sideEffect() + " (nothing ran)", decision(record)));
            }
            return List.of(new Table(List.of("entry", "error", "side effect", "decision"), rows));
        }
        if (report.operations().size() == 1) {
            OperationReport only = report.operations().get(0);
            List<KeyValue> facts = new ArrayList<>();
            facts.add(kv("operation", only.details().operationId()));
            facts.add(kv("current status", status(only.details())));
            facts.add(kv("side effect", only.details().operation().sideEffect()));
            facts.addAll(lineage(only.details().lineage()));
            List<String> decisions = decisions(only.details());
            if (decisions.isEmpty()) {
                facts.add(kv("decision", "none yet"));
            }
            decisions.forEach(decision -> facts.add(kv("decision", decision)));
            facts.add(kv("verification", verification(only.verification())));
            return List.of(new Facts(facts));
        }
        List<List<String>> rows = new ArrayList<>();
        Facts overall = new ReportOverview(time).overall(report);
        for (OperationReport operation : report.operations()) {
            List<String> decisions = decisions(operation.details());
            rows.add(row(operation.details().operationId() + lineageNote(operation.details().lineage()),
                    status(operation.details()),
                    operation.details().operation().sideEffect(),
                    decisions.isEmpty() ? "none yet" : String.join("; ", decisions), verification(operation.verification())));
        }
        return List.of(overall,
                new Table(List.of("operation", "current status", "side effect", "decisions", "verification"), rows));
    }

    /** Which operation this one corrects and which corrects it: a reader follows a correction from either end. */
    private List<KeyValue> lineage(Lineage lineage) {
        List<KeyValue> facts = new ArrayList<>();
        if (lineage.corrects() != null) {
            facts.add(kv("corrects", lineage.corrects() + " (this operation is its correction, a later logical attempt)"));
        }
        if (lineage.correctedBy() != null) {
            facts.add(kv("corrected by", lineage.correctedBy() + " (it replaced this operation, which never runs again)"));
        }
        return facts;
    }

    /** " (corrects r:n:0)" or " (corrected by r:n:1)" after an operation id in the summary's table. */
    private static String lineageNote(Lineage lineage) {
        return (lineage.corrects() == null ? "" : " (corrects " + lineage.corrects() + ")")
                + (lineage.correctedBy() == null ? "" : " (corrected by " + lineage.correctedBy() + ")");
    }

    private static String status(OperationDetails details) {
        OperationRecord operation = details.operation();
        return operation.status() + " (attempt " + operation.attempt() + ")"
                + details.latestEntry().map(entry -> ", DLQ entry " + entry.id() + " " + entry.decisionState()).orElse("");
    }

    /** Who decided what, when and why, oldest first. */
    private List<String> decisions(OperationDetails details) {
        List<String> decisions = new ArrayList<>();
        for (AuditEntry entry : details.audit()) {
            if (DECISIONS.contains(entry.action())) {
                decisions.add(entry.action() + " by " + entry.who() + " at " + time.format(entry.at())
                        + (entry.reason() == null || entry.reason().isBlank() ? "" : ": " + entry.reason()));
            }
        }
        return decisions;
    }

    private static String verification(RedriveVerification verification) {
        return verification == null ? "not redriven, nothing to verify"
                : verification.verdict() + ": " + verification.explanation();
    }

    private List<Section> operation(OperationReport report) {
        OperationDetails details = report.details();
        OperationRecord operation = details.operation();
        DlqEntryRecord entry = details.latestEntry().orElse(null);
        List<Section> sections = new ArrayList<>();
        sections.add(new Section("Operation " + operation.operationId(), 1, List.of(new Facts(List.of(
                kv("operation id", operation.operationId()),
                kv("run", operation.runId() + (details.run() == null ? "" : " (" + details.run().status() + ")")),
                kv("node", operation.nodeId()),
                kv("logical attempt", operation.logicalAttempt()),
                kv("status", operation.status()),
                kv("attempt", operation.attempt()),
                kv("tool", operation.tool()),
                kv("idempotency key", operation.idempotencyKey()),
                kv("approval", operation.approvalId() == null ? "none needed" : approval(details)),
                kv("trace id", operation.traceId()),
                kv("traceparent", operation.traceparent() == null ? "none sent" : operation.traceparent()),
                kv("correlation id", operation.correlationId()))))));
        sections.add(new Section("Versions", 2, List.of(new Facts(List.of(
                kv("tool schema when dispatched", entry == null ? operation.toolSchemaVersion() : entry.toolSchemaVersion()),
                kv("tool schema now recorded on the operation", operation.toolSchemaVersion()),
                kv("tool schema current", details.currentToolSchemaVersion()),
                kv("runtime version", entry == null ? operation.runtimeVersion() : entry.runtimeVersion()))))));
        if (entry != null) {
            sections.add(messageMetadata(entry, kv("dispatched at", operation.dispatchedAt())));
            sections.add(normalizedError(entry));
        }
        sections.add(new Section("Attempt timeline", 2, attempts(details)));
        sections.add(new Section("Side effect and reconciliation", 2, sideEffect(details)));
        sections.add(new Section("Redrive preconditions (checked " + time.format(report.preconditions().checkedAt()) + ")", 2,
                List.of(preconditions(report.preconditions().results()))));
        sections.add(new Section("Redrive commands", 2, commands(details.redriveCommands(), report.verification())));
        sections.add(new Section("Decisions and audit trail", 2, List.of(audit(details.audit()))));
        sections.add(new Section("Payload (redacted)", 2, List.of(new Code(pretty(operation.payload())))));
        return sections;
    }

    /**
     * A message dead-lettered as itself: what it said, its error and decision. Nothing about an operation applies, so
     * the sections an operation has (attempts, reconciliation, redrive) are one line each or left out.
     */
    private List<Section> entryWithoutOperation(EntryReport report) {
        DlqEntryRecord entry = report.details().entry();
        List<Section> sections = new ArrayList<>();
        sections.add(new Section("DLQ entry " + entry.id() + " (no operation)", 1, List.of(
                new Paragraph("The worker could not take this message as a dispatch and dead-lettered it as itself: "
                        + "no operation was recorded and nothing ran."),
                new Facts(List.of(
                        kv("operation id as sent", entry.operationId()),
                        kv("run as sent", entry.runId()),
                        kv("node as sent", entry.nodeId()),
                        kv("tool as sent", entry.tool()),
                        kv("trace id as sent", entry.traceId()),
                        kv("correlation id as sent", entry.correlationId()),
                        kv("worker runtime version", entry.runtimeVersion()),
                        kv("side effect", entry.sideEffect() + " (nothing ran)"))))));
        sections.add(messageMetadata(entry, null));
        sections.add(normalizedError(entry));
        sections.add(new Section("Attempt timeline", 2, List.of(new Paragraph(
                "No attempts: the message was dead-lettered when it was read, before any operation existed."))));
        sections.add(new Section("Decision check (checked " + time.format(report.entryCheck().checkedAt()) + ")", 2,
                List.of(preconditions(report.entryCheck().results()),
                        new Paragraph("Redrive preconditions do not apply: there is no operation to run again; the "
                                + "entry can be discarded or resolved."))));
        sections.add(new Section("Decisions and audit trail", 2, List.of(audit(report.details().audit()))));
        sections.add(new Section("Raw message (redacted)", 2, List.of(entry.evidencePurged()
                ? new Paragraph("The raw message was " + entry.purgedNote() + ".")
                : new Code(pretty(entry.rawMessage())))));
        return sections;
    }

    /** Where the entry came from and its decision; {@code dispatched} is the operation's dispatch time, if it has one. */
    private Section messageMetadata(DlqEntryRecord entry, KeyValue dispatched) {
        List<KeyValue> facts = new ArrayList<>(List.of(
                kv("DLQ entry", entry.id() + " (version " + entry.version() + ")"),
                kv("stream", entry.stream()),
                kv("stream entry id", entry.entryId()),
                kv("delivery count", entry.deliveryCount()),
                kv("consumer", entry.consumer())));
        if (dispatched != null) {
            facts.add(dispatched);
        }
        facts.add(kv("entered DLQ at", entry.enteredAt()));
        facts.add(kv("decision", decision(entry)));
        return new Section("Message metadata", 2, List.of(new Facts(facts)));
    }

    private String decision(DlqEntryRecord entry) {
        return entry.decisionState() + (entry.decidedBy() == null ? ""
                : " by " + entry.decidedBy() + " at " + time.format(entry.decidedAt()) + ": " + entry.decisionReason());
    }

    private Section normalizedError(DlqEntryRecord entry) {
        return new Section("Normalized error", 2, List.of(new Facts(List.of(
                kv("error class", entry.errorClass()),
                kv("error code", entry.errorCode()),
                kv("error message", entry.errorMessage()),
                kv("fingerprint", entry.errorFingerprint())))));
    }

    private String approval(OperationDetails details) {
        if (details.approval() == null) {
            return details.operation().approvalId() + " (missing)";
        }
        var approval = details.approval();
        String state = approval.revokedAt() != null ? "revoked by " + approval.revokedBy() + " at " + time.format(approval.revokedAt())
                : approval.expiresAt() == null ? "no expiry" : "expires " + time.format(approval.expiresAt());
        return approval.approvalId() + " granted by " + approval.grantedBy() + ", " + state;
    }

    /** The timeline, then one table row per attempt: what an operator compares across attempts, nothing more. */
    private List<Block> attempts(OperationDetails details) {
        List<Block> blocks = new ArrayList<>();
        List<Bar> bars = new ArrayList<>();
        Instant from = null;
        Instant to = null;
        for (AttemptRecord attempt : details.attempts()) {
            Instant start = attempt.startedAt();
            Instant end = attempt.finishedAt() == null ? start : attempt.finishedAt();
            bars.add(new Bar("attempt " + attempt.attempt(), start, end, attempt.outcome(),
                    attempt.errorClass() == null ? attempt.outcome() : attempt.errorClass() + ": " + attempt.errorMessage()));
            from = from == null || start.isBefore(from) ? start : from;
            to = to == null || end.isAfter(to) ? end : to;
        }
        List<Marker> markers = new ArrayList<>();
        for (RedriveCommandRecord command : details.redriveCommands()) {
            markers.add(new Marker(command.issuedAt(), "redrive by " + command.operator()));
            from = from == null || command.issuedAt().isBefore(from) ? command.issuedAt() : from;
            to = to == null || command.issuedAt().isAfter(to) ? command.issuedAt() : to;
        }
        if (bars.isEmpty()) {
            blocks.add(new Paragraph("No attempt has been recorded."));
            return blocks;
        }
        blocks.add(new Timeline(from, to, bars, markers));
        List<List<String>> rows = new ArrayList<>();
        for (AttemptRecord attempt : details.attempts()) {
            rows.add(row(attempt.attempt(), attempt.startedAt(), took(attempt), attempt.outcome(),
                    classAndCode(attempt), attempt.errorMessage(), attempt.nextEligibleAt(),
                    attempt.consumer() == null ? "" : attempt.consumer() + (attempt.deliveryId() == null ? "" : " · " + attempt.deliveryId())));
        }
        blocks.add(new Table(List.of("#", "started", "took", "outcome", "class · code", "error", "next eligible",
                "consumer · delivery"), rows));
        // Where a tracer holds an attempt: left out when no attempt was traced, as without an OpenTelemetry SDK.
        List<KeyValue> spans = details.attempts().stream().filter(AttemptRecord::hasSpan)
                .map(attempt -> kv("attempt " + attempt.attempt() + " span",
                        attempt.spanId() + " in trace " + attempt.traceId())).toList();
        if (!spans.isEmpty()) {
            blocks.add(new Facts(spans));
        }
        return blocks;
    }

    private static String took(AttemptRecord attempt) {
        return attempt.finishedAt() == null ? "unfinished"
                : java.time.Duration.between(attempt.startedAt(), attempt.finishedAt()).toMillis() + " ms";
    }

    private static String classAndCode(AttemptRecord attempt) {
        if (attempt.errorClass() == null) {
            return "";
        }
        return attempt.errorClass() + (attempt.errorCode() == null ? "" : " · " + attempt.errorCode());
    }

    private List<Block> sideEffect(OperationDetails details) {
        List<Block> blocks = new ArrayList<>();
        blocks.add(new Facts(List.of(kv("side-effect state", details.operation().sideEffect()))));
        if (details.reconciliations().isEmpty()) {
            blocks.add(new Paragraph("No reconciliation has been recorded."));
            return blocks;
        }
        List<List<String>> rows = new ArrayList<>();
        for (ReconciliationRecord reconciliation : details.reconciliations()) {
            rows.add(row(reconciliation.recordedAt(), reconciliation.recordedBy(), reconciliation.source(),
                    reconciliation.outcome(), reconciliation.evidence(), compact(reconciliation.result())));
        }
        blocks.add(new Table(List.of("at", "by", "source", "outcome", "evidence", "result"), rows));
        return blocks;
    }

    private Table preconditions(List<PreconditionResult> results) {
        List<List<String>> rows = new ArrayList<>();
        for (PreconditionResult result : results) {
            rows.add(row(result.id().title(), result.passed() ? "PASS" : "FAIL", result.explanation(), facts(result.facts())));
        }
        return new Table(List.of("check", "result", "why", "facts"), rows);
    }

    /**
     * The commands, each with how its own checks went in one line: the full table of checks is the one above (as
     * checked for this report); repeating it per command said the same thing twice.
     */
    private List<Block> commands(List<RedriveCommandRecord> commands, RedriveVerification verification) {
        List<Block> blocks = new ArrayList<>();
        if (commands.isEmpty()) {
            blocks.add(new Paragraph("Never redriven."));
            return blocks;
        }
        List<List<String>> rows = new ArrayList<>();
        for (RedriveCommandRecord command : commands) {
            rows.add(row(command.commandId(), command.issuedAt(), command.operator(), command.reason(),
                    command.fromAttempt() + " -> " + command.toAttempt(), command.targetSchemaVersion(), command.status(),
                    checksWhenIssued(command)));
        }
        blocks.add(new Table(List.of("command", "issued", "operator", "reason", "attempts", "schema", "status",
                "checks when issued"), rows));
        if (verification != null) {
            blocks.add(new Facts(List.of(
                    kv("verification", verification.verdict()),
                    kv("explanation", verification.explanation()),
                    kv("successful attempts after the command", verification.successfulAttemptsAfter()),
                    kv("effects for the idempotency key", verification.effects() == null ? "not verifiable for this tool"
                            : verification.effects()),
                    kv("what the tool answered", verification.effectEvidence()))));
        }
        return blocks;
    }

    /** "all 5 passed", or how many passed and which failed with why. */
    private static String checksWhenIssued(RedriveCommandRecord command) {
        int total = 0;
        List<String> failed = new ArrayList<>();
        for (JsonNode check : command.preconditions()) {
            total++;
            if (!check.path("passed").asBoolean()) {
                failed.add(check.path("id").asText() + " (" + check.path("explanation").asText() + ")");
            }
        }
        return failed.isEmpty() ? "all " + total + " passed"
                : (total - failed.size()) + " of " + total + " passed; failed: " + String.join(", ", failed);
    }

    private Table audit(List<AuditEntry> audit) {
        List<List<String>> rows = new ArrayList<>();
        for (AuditEntry entry : audit) {
            rows.add(row(entry.at(), entry.who(), entry.action(), entry.reason(), entry.dlqEntryId(), entry.commandId()));
        }
        return new Table(List.of("at", "who", "what", "why", "entry", "command"), rows);
    }

    private String facts(Map<String, Object> facts) {
        return facts.entrySet().stream().filter(e -> e.getValue() != null)
                .map(e -> e.getKey() + "=" + time.text(e.getValue())).collect(Collectors.joining("; "));
    }

    private static String pretty(JsonNode json) {
        return json == null ? "(none)" : TriageJson.write(json);
    }

    private String compact(JsonNode json) {
        if (json == null || json.isMissingNode() || json.isNull()) {
            return "";
        }
        if (json.isObject()) {
            List<String> parts = new ArrayList<>();
            Iterator<Map.Entry<String, JsonNode>> fields = json.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                if (!field.getValue().isNull()) {
                    parts.add(field.getKey() + "=" + (field.getValue().isValueNode() ? time.text(field.getValue().asText())
                            : field.getValue().toString()));
                }
            }
            return String.join("; ", parts);
        }
        return json.toString();
    }

    private KeyValue kv(String key, Object value) {
        return new KeyValue(key, time.text(value));
    }

    private List<String> row(Object... cells) {
        List<String> row = new ArrayList<>();
        for (Object cell : cells) {
            row.add(time.text(cell));
        }
        return row;
    }
}
