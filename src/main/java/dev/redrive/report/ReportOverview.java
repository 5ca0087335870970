package dev.redrive.report;

import dev.redrive.report.ReportDocument.Facts;
import dev.redrive.report.ReportDocument.KeyValue;
import dev.redrive.report.ReportDocument.Section;
import dev.redrive.report.ReportDocument.Table;
import dev.redrive.triage.decision.durable.BatchOutcomes;
import dev.redrive.triage.decision.durable.DurableBatch;
import dev.redrive.triage.detail.DlqEntryRecord;
import dev.redrive.triage.query.FingerprintGroup;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What a report of many operations says before the first of them: how many stand where, with which side effect, and
 * for a batch what it was asked and what became of each item. A group of a hundred pages is read from here.
 */
final class ReportOverview {
    private final ReportTime time;

    ReportOverview(ReportTime time) {
        this.time = time;
    }

    /**
     * "DEAD_LETTERED 60, SUCCEEDED 40" per status, side effect, DLQ entry, failure class and tool; when their entries
     * came into the DLQ, which decisions were taken and by whom.
     */
    Facts overall(IncidentReport report) {
        List<OperationReport> operations = report.operations();
        List<KeyValue> facts = new ArrayList<>();
        facts.add(kv("operations in this report", operations.size()
                + (report.omitted() > 0 ? " (" + report.omitted() + " more left out)" : "")));
        facts.add(kv("by status", counted(operations, operation -> operation.details().operation().status().name())));
        facts.add(kv("by side effect", counted(operations,
                operation -> String.valueOf(operation.details().operation().sideEffect()))));
        facts.add(kv("by DLQ entry", counted(operations, operation -> operation.details().latestEntry()
                .map(entry -> entry.decisionState().name()).orElse("no entry"))));
        facts.add(kv("by failure class", counted(operations, operation -> operation.details().latestEntry()
                .map(entry -> String.valueOf(entry.errorClass())).orElse("never failed"))));
        facts.add(kv("by tool", counted(operations, operation -> operation.details().operation().tool())));
        List<DlqEntryRecord> entries = operations.stream()
                .flatMap(operation -> operation.details().dlqEntries().stream()).toList();
        facts.add(kv("dead-lettered", deadLettered(entries)));
        List<DlqEntryRecord> decided = entries.stream().filter(entry -> entry.decidedBy() != null).toList();
        facts.add(kv("decisions taken", decided.isEmpty() ? "none yet"
                : counted(decided, entry -> entry.decisionState().name())));
        if (!decided.isEmpty()) {
            facts.add(kv("decided by", counted(decided, DlqEntryRecord::decidedBy)));
        }
        return new Facts(facts);
    }

    /** When the first and the last of these entries came into the DLQ: the stretch of time the report covers. */
    private String deadLettered(List<DlqEntryRecord> entries) {
        Optional<Instant> first = entries.stream().map(DlqEntryRecord::enteredAt).min(Comparator.naturalOrder());
        Optional<Instant> last = entries.stream().map(DlqEntryRecord::enteredAt).max(Comparator.naturalOrder());
        if (first.isEmpty()) {
            return "none of these operations";
        }
        return entries.size() + " entries, " + (first.equals(last) ? "at " + time.text(first.get())
                : "from " + time.text(first.get()) + " to " + time.text(last.get()));
    }

    /** The fingerprint group's statistics, before its operations. */
    Section group(FingerprintGroup group) {
        return new Section("Fingerprint group " + group.fingerprint(), 1, List.of(new Facts(List.of(
                kv("fingerprint", group.fingerprint()),
                kv("tool", group.tool()),
                kv("failure classes", group.classes().stream().map(Enum::name).collect(Collectors.joining(", "))),
                kv("entries", group.count()),
                kv("still open", group.openCount()),
                kv("first seen", group.firstSeen()),
                kv("last seen", group.lastSeen()),
                kv("sample error", group.sampleMessage())))));
    }

    /** The batch: what it was asked, where it stands, and each item's outcome now. */
    Section batch(BatchOutcomes.Report outcomes) {
        DurableBatch batch = outcomes.batch();
        Facts asked = new Facts(List.of(
                kv("batch", batch.id() + ": " + batch.kind().name().toLowerCase(Locale.ROOT) + " of "
                        + batch.selection().describe()),
                kv("state", batch.state() + (batch.error() == null ? "" : ": " + batch.error())),
                kv("operator", batch.operator() + (batch.dbLogin() == null ? "" : " (login " + batch.dbLogin() + ")")),
                kv("reason", batch.reason()),
                kv("started", batch.createdAt()),
                kv("finished", batch.finishedAt() == null ? "not yet" : batch.finishedAt()),
                kv("items taken", batch.done() + " of " + Math.max(batch.total(), batch.done())),
                kv("outcomes now", outcomes.summary())));
        List<List<String>> rows = new ArrayList<>();
        for (BatchOutcomes.Item item : outcomes.items()) {
            rows.add(List.of(String.valueOf(item.seq()),
                    item.operationId() == null ? "entry " + item.dlqEntryId() : item.operationId(),
                    item.outcome().name(), item.whatHappened()));
        }
        return new Section("Batch " + batch.id(), 1, List.of(asked,
                new Table(List.of("item", "operation", "outcome", "what happened"), rows)));
    }

    private static <T> String counted(List<T> items, Function<T, String> key) {
        Map<String, Long> counts = items.stream()
                .collect(Collectors.groupingBy(key, TreeMap::new, Collectors.counting()));
        return counts.entrySet().stream().map(entry -> entry.getKey() + " " + entry.getValue())
                .collect(Collectors.joining(", "));
    }

    private KeyValue kv(String key, Object value) {
        return new KeyValue(key, time.text(value));
    }
}
