package dev.redrive.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.envelope.Traceparent;
import dev.redrive.triage.decision.verify.RedriveVerification;
import dev.redrive.triage.decision.verify.RedriveVerifier;
import dev.redrive.triage.detail.AttemptRecord;
import dev.redrive.triage.detail.AuditEntry;
import dev.redrive.triage.detail.DlqEntryRecord;
import dev.redrive.triage.detail.EntryDetails;
import dev.redrive.triage.detail.Lineage;
import dev.redrive.triage.detail.OperationDetails;
import dev.redrive.triage.detail.OperationDetailsLoader;
import dev.redrive.triage.detail.OperationRecord;
import dev.redrive.triage.detail.ReconciliationRecord;
import dev.redrive.triage.detail.RedriveCommandRecord;
import dev.redrive.triage.detail.UnknownOperationException;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.redaction.Redactor;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

@Command(name = "op", mixinStandardHelpOptions = true, description = "Look at one operation.",
        subcommands = {OpCommand.Show.class})
final class OpCommand {

    @Command(name = "show", mixinStandardHelpOptions = true,
            description = "One operation with its attempts, DLQ entries, reconciliations, redrive commands and audit trail; "
                    + "with --entry, one DLQ entry (code, error, raw message, when it was received, its decision) and "
                    + "its operation if it has one.")
    static final class Show extends NamespaceCommand {
        @Mixin
        OperationOrEntry subject;

        @Mixin
        JsonOption json;

        @Mixin
        RedactOption redact;

        @Override
        public Integer call() {
            DecisionTarget target = subject.target();
            Redactor redactor = redact.redactor();
            PrintWriter out = spec.commandLine().getOut();
            try (TriageSession session = new TriageSession(connection)) {
                OperationDetailsLoader loader = session.services().operationDetails();
                if (target.entryOnly()) {
                    showEntry(out, redactor.redact(session.services().entryDetails().require(target.dlqEntryId())),
                            session.services().verifier(session.sideEffectLookup()));
                } else {
                    OperationDetails details;
                    try {
                        details = redactor.redact(loader.require(target.operationId()));
                    } catch (UnknownOperationException e) {
                        throw EntriesNamingHint.withHint(session.database(), target.operationId(), e, "show");
                    }
                    showOperation(out, details, session.services().verifier(session.sideEffectLookup()));
                }
                out.flush();
                return 0;
            }
        }

        private void showOperation(PrintWriter out, OperationDetails details, RedriveVerifier verifier) {
            Lineage lineage = details.lineage();
            RedriveVerification verification = verifier.latest(details.operationId()).orElse(null);
            if (json.on()) {
                out.println(TriageJson.write(json(details, verification, lineage)));
            } else {
                text(out, details, verification, lineage);
            }
        }

        private void showEntry(PrintWriter out, EntryDetails details, RedriveVerifier verifier) {
            RedriveVerification verification = details.ofOperation()
                    .flatMap(operation -> verifier.latest(operation.operationId())).orElse(null);
            Lineage lineage = details.operation() == null ? Lineage.NONE : details.operation().lineage();
            if (json.on()) {
                out.println(TriageJson.write(json(details, verification, lineage)));
                return;
            }
            text(out, details);
            if (details.operation() != null) {
                out.println();
                text(out, details.operation(), verification, lineage);
            }
        }

        /** The entry's fields at the top level, its audit trail and its operation (as {@code op show OP}) beside them. */
        private static ObjectNode json(EntryDetails details, RedriveVerification verification, Lineage lineage) {
            ObjectNode root = TriageJson.mapper().valueToTree(details.entry());
            root.set("audit", TriageJson.mapper().valueToTree(details.audit()));
            root.set("operation", details.operation() == null ? null : json(details.operation(), verification, lineage));
            return root;
        }

        private static void text(PrintWriter out, EntryDetails details) {
            DlqEntryRecord entry = details.entry();
            out.printf("dlq entry   %d (version %d)%n", entry.id(), entry.version());
            out.printf("error       %s%s: %s%n", entry.errorClass(), entry.errorCode() == null ? "" : " " + entry.errorCode(),
                    entry.errorMessage());
            out.printf("received    %s on %s entry %s, delivery %s, consumer %s%n", entry.enteredAt(), entry.stream(),
                    entry.entryId(), entry.deliveryCount(), entry.consumer());
            out.printf("decision    %s%s%s%n", entry.decisionState(), correction(entry), entry.decidedBy() == null ? ""
                    : " by " + entry.decidedBy() + " at " + entry.decidedAt() + ": " + entry.decisionReason());
            out.printf("fingerprint %s, side effect %s%n", entry.errorFingerprint(), entry.sideEffect());
            out.printf("operation   %s%n", entry.ofOperation() ? entry.operationId() + " (below)"
                    : "none: the message was dead-lettered as itself" + named(entry));
            out.printf("raw message %s%n", entry.evidencePurged() ? entry.purgedNote()
                    : TriageJson.compact(entry.rawMessage()));
            audit(out, details.audit());
        }

        /** " (corrected by r1:charge:1)" for an entry a correction superseded, else nothing. */
        private static String correction(DlqEntryRecord entry) {
            return entry.supersededBy() == null ? "" : " (corrected by " + entry.supersededBy() + ")";
        }

        /** What a message without an operation said about itself, as sent: the way to find its publisher. */
        private static String named(DlqEntryRecord entry) {
            Map<String, String> said = new LinkedHashMap<>();
            said.put("operation_id", entry.operationId());
            said.put("run_id", entry.runId());
            said.put("node_id", entry.nodeId());
            said.put("tool", entry.tool());
            said.put("trace_id", entry.traceId());
            said.put("correlation_id", entry.correlationId());
            said.values().removeIf(value -> value == null || value.isEmpty());
            return said.isEmpty() ? "" : "; it names " + said.entrySet().stream()
                    .map(field -> field.getKey() + " " + field.getValue()).collect(Collectors.joining(", "));
        }

        /** The operation's fields at the top level, with everything about it beside them. */
        private static ObjectNode json(OperationDetails details, RedriveVerification verification, Lineage lineage) {
            ObjectNode root = TriageJson.mapper().valueToTree(details.operation());
            root.put("corrects", lineage.corrects());
            root.put("corrected_by", lineage.correctedBy());
            root.set("run", TriageJson.mapper().valueToTree(details.run()));
            root.set("attempts", TriageJson.mapper().valueToTree(details.attempts()));
            root.set("dlq_entries", TriageJson.mapper().valueToTree(details.dlqEntries()));
            root.set("reconciliations", TriageJson.mapper().valueToTree(details.reconciliations()));
            root.set("redrive_commands", TriageJson.mapper().valueToTree(details.redriveCommands()));
            root.set("audit", TriageJson.mapper().valueToTree(details.audit()));
            root.put("current_tool_schema_version", details.currentToolSchemaVersion());
            root.set("approval", TriageJson.mapper().valueToTree(details.approval()));
            root.set("verification", TriageJson.mapper().valueToTree(verification));
            return root;
        }

        private static void text(PrintWriter out, OperationDetails details, RedriveVerification verification,
                                 Lineage lineage) {
            OperationRecord op = details.operation();
            out.printf("operation   %s%n", op.operationId());
            out.printf("status      %s at attempt %d (run %s %s)%n", op.status(), op.attempt(), op.runId(),
                    details.run() == null ? "unknown" : details.run().status());
            if (lineage.corrects() != null) {
                out.printf("corrects    %s (this is its correction, a later logical attempt)%n", lineage.corrects());
            }
            if (lineage.correctedBy() != null) {
                out.printf("corrected by %s (it replaced this operation, which never runs again)%n", lineage.correctedBy());
            }
            out.printf("tool        %s schema %s (current %s)%n", op.tool(), op.toolSchemaVersion(),
                    Objects.toString(details.currentToolSchemaVersion(), "none registered"));
            out.printf("key         %s%n", op.idempotencyKey());
            out.printf("trace       %s  correlation %s%n", Objects.toString(op.traceId(), "none sent"),
                    Objects.toString(op.correlationId(), "none sent"));
            if (op.traceparent() != null) {
                out.printf("traceparent %s (W3C trace id %s)%n", op.traceparent(), Traceparent.traceId(op.traceparent()));
            }
            out.printf("side effect %s%n", op.sideEffect());
            out.printf("approval    %s%n", op.approvalId() == null ? "none needed" : op.approvalId());
            out.printf("payload     %s%n", TriageJson.compact(op.payload()));
            out.println();
            out.println("attempts:");
            for (AttemptRecord attempt : details.attempts()) {
                out.printf("  #%d %-15s %s -> %s %s %s%n", attempt.attempt(), attempt.outcome(), attempt.startedAt(),
                        attempt.finishedAt(), attempt.errorClass() == null ? "" : attempt.errorClass(),
                        attempt.errorMessage() == null ? "" : attempt.errorMessage());
                if (attempt.hasSpan()) {
                    out.printf("     span %s in trace %s%n", attempt.spanId(), attempt.traceId());
                }
            }
            for (DlqEntryRecord entry : details.dlqEntries()) {
                out.printf("dlq entry %d (version %d): %s%s, %s: %s; entered %s; stream %s %s delivery %s consumer %s%n",
                        entry.id(), entry.version(), entry.decisionState() + correction(entry),
                        entry.decidedBy() == null ? "" : " by " + entry.decidedBy() + " at " + entry.decidedAt(),
                        entry.errorClass(), entry.errorMessage(), entry.enteredAt(), entry.stream(), entry.entryId(),
                        entry.deliveryCount(), entry.consumer());
                out.printf("  fingerprint %s, side effect %s%n", entry.errorFingerprint(), entry.sideEffect());
                if (entry.evidencePurged()) {
                    out.printf("  evidence %s%n", entry.purgedNote());
                }
            }
            for (ReconciliationRecord reconciliation : details.reconciliations()) {
                out.printf("reconciled %s by %s (%s) at %s: %s%n", reconciliation.outcome(), reconciliation.recordedBy(),
                        reconciliation.source(), reconciliation.recordedAt(), reconciliation.evidence());
            }
            for (RedriveCommandRecord command : details.redriveCommands()) {
                out.printf("redrive %s by %s at %s: attempt %d -> %d, schema %s, %s (%s)%n", command.commandId(),
                        command.operator(), command.issuedAt(), command.fromAttempt(), command.toAttempt(),
                        command.targetSchemaVersion(), command.status(), command.reason());
                if (command.operatorTraceparent() != null) {
                    out.printf("  issued in the operator's trace %s%n", command.operatorTraceparent());
                }
            }
            if (verification != null) {
                out.printf("verification %s: %s%n", verification.verdict(), verification.explanation());
            }
            audit(out, details.audit());
        }

        private static void audit(PrintWriter out, List<AuditEntry> audit) {
            out.println("audit:");
            for (AuditEntry entry : audit) {
                out.printf("  %s %-8s %-12s %s%n", entry.at(), entry.who(), entry.action(), entry.reason() == null ? "" : entry.reason());
            }
        }
    }
}
