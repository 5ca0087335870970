package dev.redrive.demo.sandbox;

import dev.redrive.model.FailureClass;
import dev.redrive.store.Jdbc;

import java.util.EnumMap;
import java.util.Map;

/**
 * What a sandbox holds, read back from the operation store: how many operations, how they ended, and the DLQ by
 * failure class with the entries whose side effect is uncertain.
 */
public record SeedSummary(long operations, long succeeded, long deadLettered, Map<FailureClass, Long> dlqByClass,
                          long possibleSideEffects, long runs, long cancelledRuns, long revokedApprovals,
                          long changedToolSchemas) {

    public SeedSummary {
        dlqByClass = Map.copyOf(dlqByClass);
    }

    static SeedSummary read(Jdbc jdbc) {
        Map<FailureClass, Long> byClass = new EnumMap<>(FailureClass.class);
        jdbc.query("SELECT error_class, count(*) FROM dlq_entries GROUP BY error_class",
                row -> byClass.put(FailureClass.valueOf(row.getString(1)), row.getLong(2)));
        return new SeedSummary(
                jdbc.queryLong("SELECT count(*) FROM operations"),
                jdbc.queryLong("SELECT count(*) FROM operations WHERE status = 'SUCCEEDED'"),
                jdbc.queryLong("SELECT count(*) FROM dlq_entries"),
                byClass,
                jdbc.queryLong("SELECT count(*) FROM dlq_entries WHERE side_effect = 'POSSIBLE'"),
                jdbc.queryLong("SELECT count(*) FROM runs"),
                jdbc.queryLong("SELECT count(*) FROM runs WHERE status = 'CANCELLED'"),
                jdbc.queryLong("SELECT count(*) FROM approvals WHERE revoked_at IS NOT NULL"),
                jdbc.queryLong("SELECT count(DISTINCT tool) FROM tool_schemas WHERE NOT is_current"));
    }

    /** A few lines for a terminal. */
    public String describe() {
        StringBuilder text = new StringBuilder()
                .append(operations).append(" operations in ").append(runs).append(" runs: ")
                .append(succeeded).append(" succeeded, ").append(deadLettered).append(" in the DLQ");
        dlqByClass.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(entry -> text.append("\n  ").append(entry.getKey()).append(": ").append(entry.getValue()));
        return text.append("\n  side effect POSSIBLE: ").append(possibleSideEffects)
                .append("\n").append(cancelledRuns).append(" cancelled run, ").append(revokedApprovals)
                .append(" revoked approval, ").append(changedToolSchemas).append(" tool with a changed schema")
                .toString();
    }
}
