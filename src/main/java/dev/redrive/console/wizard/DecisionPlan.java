package dev.redrive.console.wizard;

import dev.redrive.console.ui.CountText;
import dev.redrive.identity.OperationId;
import dev.redrive.triage.correction.CorrectionResult;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.durable.DurableBatch;
import dev.redrive.triage.detail.OperationDetails;
import dev.redrive.triage.precondition.PreconditionReport;
import dev.redrive.triage.redaction.Redactor;

import java.util.List;

/**
 * What the chosen decision will do, said before it is done: the button that takes it names the act and its size, and
 * a summary says which attempt, which idempotency key and how fast.
 */
final class DecisionPlan {
    private DecisionPlan() {
    }

    /** "Redrive 1 operation", "Discard 12 entries", "Resolve as succeeded". */
    static String action(DecisionKind kind, int count, boolean batch) {
        return switch (kind) {
            case REDRIVE -> "Redrive " + CountText.of(count, "operation", "operations");
            case RESOLVE -> batch ? "Resolve " + count + " as succeeded" : "Resolve as succeeded";
            case DISCARD -> "Discard " + CountText.of(count, "entry", "entries");
            case CORRECT -> correctAction(null);
        };
    }

    /** "Redrive corrected payload as attempt 2": the correction is the node's logical attempt 2. */
    static String correctAction(CorrectionResult preview) {
        return preview == null || preview.correctionId() == null ? "Redrive corrected payload"
                : "Redrive corrected payload as attempt " + OperationId.parse(preview.correctionId()).logicalAttempt();
    }

    /** Which operation and key the correction dispatches, what it changes, and what becomes of the original. */
    static String correctSummary(WizardItem item, CorrectionResult preview, PayloadEditor editor) {
        String next = preview == null || preview.correctionId() == null
                ? "the node's next logical attempt (reading which…)"
                : "new operation " + preview.correctionId() + " (the node's next logical attempt) with its own "
                + "idempotency key " + preview.idempotencyKey() + " and schema version " + preview.toolSchemaVersion()
                + (item.chosenSchemaVersion() == null ? "" : " (your choice)");
        String changes = !editor.isValid() ? "The payload cannot be taken yet: " + editor.problemProperty().get() + "."
                : "It carries the payload on the right; fields left as " + Redactor.MASK + " keep their stored values.";
        return "Records a correction and dispatches " + next + ". " + changes + " Entry " + item.dlqEntryId()
                + " becomes SUPERSEDED and " + item.operationId() + " never runs again, even if its old dispatch is "
                + "delivered late. Every check runs again as it is recorded; once issued it cannot be taken back.";
    }

    /** The plan as it stands under a four-eyes rule ({@code rule} non-empty): nothing is taken before an approval. */
    static String underApproval(String rule, String summary) {
        if (rule == null || rule.isEmpty() || summary.isEmpty()) {
            return summary;
        }
        return "Nothing is taken now: this asks a second operator to approve. Once approved, it "
                + Character.toLowerCase(summary.charAt(0)) + summary.substring(1);
    }

    static String summary(DecisionKind kind, List<WizardItem> eligible, int total, int perSecond) {
        if (eligible.isEmpty()) {
            return "No entry can get this decision.";
        }
        String rest = eligible.size() == total ? "" : total - eligible.size() == 1 ? " The other one is left as it is."
                : " The other " + (total - eligible.size()) + " are left as they are.";
        if (total == 1) {
            return single(kind, eligible.get(0));
        }
        return switch (kind) {
            case REDRIVE -> "Records a redrive command for each of " + CountText.of(eligible.size(), "operation",
                    "operations") + " and dispatches each one's next attempt under that operation's same idempotency "
                    + "key, " + perSecond + " per second (about " + DurableBatch.duration(Math.max(1,
                    (eligible.size() + perSecond - 1) / perSecond)) + "). Each is checked again as it is issued; Stop "
                    + "halts the batch between chunks, each item decided in full or left as it is." + rest;
            case RESOLVE -> resolveMany(eligible) + rest;
            case DISCARD -> "Gives up " + CountText.of(eligible.size(), "entry", "entries")
                    + ": their operations never run again." + rest;
            case CORRECT -> "A correction takes one entry at a time.";
        };
    }

    private static String resolveMany(List<WizardItem> eligible) {
        long alone = eligible.stream().filter(WizardItem::entryOnly).count();
        long operations = eligible.size() - alone;
        String ops = operations == 0 ? "" : "Marks " + CountText.of(operations, "operation", "operations")
                + " SUCCEEDED with the result of their APPLIED reconciliation; they never run again.";
        String entries = alone == 0 ? "" : (ops.isEmpty() ? "" : " ") + "Marks " + CountText.of(alone, "entry",
                "entries") + " without an operation RESOLVED; nothing else changes.";
        return ops + entries;
    }

    private static String single(DecisionKind kind, WizardItem item) {
        if (item.entryOnly()) {
            return "Marks DLQ entry " + item.dlqEntryId() + " " + (kind == DecisionKind.RESOLVE ? "RESOLVED (handled "
                    + "elsewhere)" : "DISCARDED") + ". It has no operation of its own, so nothing else changes: no "
                    + "operation is touched, not even one its message names.";
        }
        OperationDetails details = item.detailsProperty().get();
        PreconditionReport report = item.reportProperty().get();
        String key = details == null ? "" : details.operation().idempotencyKey();
        return switch (kind) {
            case REDRIVE -> "Records a redrive command and dispatches attempt " + (report.fromAttempt() + 1) + " of "
                    + item.operationId() + " with idempotency key " + key + " and schema version "
                    + report.targetSchemaVersion() + (item.chosenSchemaVersion() == null ? ""
                    : " (your choice; dispatched with " + details.operation().toolSchemaVersion() + ")")
                    + ". The tool sees the same key, so an effect already made is not made twice. Every check runs "
                    + "again as it is issued; once issued it cannot be taken back.";
            case RESOLVE -> "Marks " + item.operationId() + " SUCCEEDED with the result its APPLIED reconciliation "
                    + "recorded (idempotency key " + key + "). It never runs again.";
            case DISCARD -> "Gives up " + item.operationId() + ": entry " + report.dlqEntryId()
                    + " is marked DISCARDED and the operation never runs again.";
            case CORRECT -> throw new IllegalArgumentException("a correction is summarized by correctSummary");
        };
    }
}
