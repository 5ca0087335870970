package dev.redrive.triage.decision.durable;

import dev.redrive.model.OperationStatus;
import dev.redrive.store.Database;
import dev.redrive.store.Jdbc;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.DecisionOutcome;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * What became of each item of a durable batch, told from the facts: the decision its chunk recorded, and for a redrive
 * the operation now and the DLQ entries of the attempts after the command. Nothing here is stored as a guess, so a
 * batch read a day later says how its redrives ended, not how they stood when the batch finished.
 */
public final class BatchOutcomes {
    // An own entry (DeadLetterStore.OWN_ENTRY) of the attempt the command dispatched, or of a retry after it, is the
    // redrive failing again.
    private static final String ITEMS = """
            SELECT i.seq, i.operation_id, i.dlq_entry_id, i.decision, i.command_id, i.blocked_by, i.message,
                   c.to_attempt, o.status AS operation_status,
                   (SELECT min(e.id) FROM dlq_entries e
                     WHERE e.operation_id = i.operation_id AND e.attempt >= c.to_attempt
                       AND e.dedup_key = 'op:' || e.operation_id || ':' || e.attempt) AS new_entry_id
              FROM redrive_batch_items i
              LEFT JOIN redrive_commands c ON c.command_id = i.command_id
              LEFT JOIN operations o ON o.operation_id = i.operation_id
             WHERE i.batch_id = ?
             ORDER BY i.seq
             LIMIT ?""";
    // The same rule over every item, counted by the server: a batch of any size is told in one short read.
    private static final String TALLY = """
            SELECT i.decision, o.status AS operation_status, i.blocked_by,
                   c.to_attempt IS NOT NULL AND EXISTS (
                       SELECT 1 FROM dlq_entries e
                        WHERE e.operation_id = i.operation_id AND e.attempt >= c.to_attempt
                          AND e.dedup_key = 'op:' || e.operation_id || ':' || e.attempt) AS failed_again,
                   count(*) AS items
              FROM redrive_batch_items i
              LEFT JOIN redrive_commands c ON c.command_id = i.command_id
              LEFT JOIN operations o ON o.operation_id = i.operation_id
             WHERE i.batch_id = ?
             GROUP BY 1, 2, 3, 4""";

    /**
     * One item and its outcome now.
     *
     * @param redrivenAttempt the attempt a redrive dispatched, null for other items
     * @param newDlqEntryId   the entry of the redriven attempt's failure, for FAILED_AGAIN
     */
    public record Item(long seq, String operationId, Long dlqEntryId, DecisionOutcome decision, ItemOutcome outcome,
                       List<String> blockedBy, UUID commandId, Integer redrivenAttempt, String operationStatus,
                       Long newDlqEntryId, String message) {

        /** What the facts say about the item, in a few words, as the CLI and the batch's report say it. */
        public String whatHappened() {
            return switch (outcome) {
                // The stored message of a blocked item says "blocked: ..." itself.
                case BLOCKED -> "blocked by " + String.join(", ", blockedBy) + ": "
                        + (message.startsWith("blocked: ") ? message.substring("blocked: ".length()) : message);
                case DECIDED_ELSEWHERE -> "skipped: " + message;
                case REFUSED, RESOLVED, DISCARDED -> message;
                case STILL_RUNNING -> "redriven as attempt " + redrivenAttempt + ", now " + operationStatus;
                case SUCCEEDED -> "redriven as attempt " + redrivenAttempt + ", then SUCCEEDED";
                case FAILED_AGAIN -> "redriven as attempt " + redrivenAttempt + ", then failed again: DLQ entry "
                        + newDlqEntryId;
                case ENDED_OTHERWISE -> "redriven as attempt " + redrivenAttempt + ", then " + operationStatus;
            };
        }
    }

    /**
     * How many items of a whole batch came to each outcome, and which checks blocked them.
     *
     * @param blockedBy blocked items by the key of each check that failed (an item blocked by two counts under both)
     */
    public record Tally(long items, Map<ItemOutcome, Long> counts, Map<String, Long> blockedBy) {
        public Tally {
            counts = counts.isEmpty() ? Map.of() : Collections.unmodifiableMap(new EnumMap<>(counts));
            blockedBy = Collections.unmodifiableSortedMap(new TreeMap<>(blockedBy));
        }

        public long count(ItemOutcome outcome) {
            return counts.getOrDefault(outcome, 0L);
        }

        /** "26 item(s): 5 succeeded, 11 failed again, 10 blocked (side_effect 6, run_active 4)". */
        public String summary() {
            String outcomes = counts.entrySet().stream().map(entry -> entry.getValue() + " " + entry.getKey().words()
                    + (entry.getKey() == ItemOutcome.BLOCKED ? blockedByChecks() : "")).collect(Collectors.joining(", "));
            return items + " item(s): " + (outcomes.isEmpty() ? "nothing taken yet" : outcomes);
        }

        private String blockedByChecks() {
            return blockedBy.isEmpty() ? "" : " (" + blockedBy.entrySet().stream()
                    .map(entry -> entry.getKey() + " " + entry.getValue()).collect(Collectors.joining(", ")) + ")";
        }
    }

    /** A batch, the outcomes of its first items (all of them when there are few) and the tally of all its items. */
    public record Report(DurableBatch batch, List<Item> items, Tally tally) {
        public Report {
            items = List.copyOf(items);
        }

        public Map<ItemOutcome, Long> counts() {
            return tally.counts();
        }

        /** The tally, saying so when fewer items were read than it counts: "... (the first 1000 listed)". */
        public String summary() {
            return tally.summary() + (items.size() < tally.items() ? " (the first " + items.size() + " listed)" : "");
        }
    }

    private final Jdbc jdbc;
    private final BatchStore store;

    public BatchOutcomes(Database database) {
        this.jdbc = database.jdbc();
        this.store = new BatchStore(jdbc);
    }

    /** The batch and its first {@code limit} items' outcomes; empty when there is no such batch. */
    public Optional<Report> of(long batchId, int limit) {
        // One snapshot: a running batch's row, its items and its tally agree.
        return jdbc.inSnapshot(() -> store.find(batchId).map(row -> {
            List<Item> items = jdbc.query(ITEMS, result -> item(row.batch().kind(), result), batchId, limit);
            Tally tally = tally(row.batch().kind(), batchId);
            return new Report(row.batch(), items, tally);
        }));
    }

    /** How a whole batch's items came out, counted without reading them; empty when there is no such batch. */
    public Optional<Tally> tally(long batchId) {
        return store.find(batchId).map(row -> tally(row.batch().kind(), batchId));
    }

    private Tally tally(DecisionKind kind, long batchId) {
        Map<ItemOutcome, Long> counts = new EnumMap<>(ItemOutcome.class);
        Map<String, Long> blockedBy = new TreeMap<>();
        long items = 0;
        for (Counted counted : jdbc.query(TALLY, row -> new Counted(outcome(kind,
                DecisionOutcome.valueOf(row.getString("decision")), row.getString("operation_status"),
                row.getBoolean("failed_again")), blockedKeys(row.getArray("blocked_by")), row.getLong("items")), batchId)) {
            items += counted.items();
            counts.merge(counted.outcome(), counted.items(), Long::sum);
            if (counted.outcome() == ItemOutcome.BLOCKED) {
                counted.blockedBy().forEach(key -> blockedBy.merge(key, counted.items(), Long::sum));
            }
        }
        return new Tally(items, counts, blockedBy);
    }

    /** How many items share an outcome and the checks that blocked them. */
    private record Counted(ItemOutcome outcome, List<String> blockedBy, long items) {
    }

    private static List<String> blockedKeys(Array blocked) throws SQLException {
        return blocked == null ? List.of() : Arrays.asList((String[]) blocked.getArray());
    }

    private static Item item(DecisionKind kind, ResultSet row) throws SQLException {
        DecisionOutcome decision = DecisionOutcome.valueOf(row.getString("decision"));
        String status = row.getString("operation_status");
        long newEntry = row.getLong("new_entry_id");
        Long newEntryId = row.wasNull() ? null : newEntry;
        int toAttempt = row.getInt("to_attempt");
        Integer redriven = row.wasNull() ? null : toAttempt;
        long entry = row.getLong("dlq_entry_id");
        Long entryId = row.wasNull() ? null : entry;
        String command = row.getString("command_id");
        return new Item(row.getLong("seq"), row.getString("operation_id"), entryId, decision,
                outcome(kind, decision, status, newEntryId != null), blockedKeys(row.getArray("blocked_by")),
                command == null ? null : UUID.fromString(command),
                redriven, status, newEntryId, row.getString("message"));
    }

    /** The rule: the decision recorded, then, for a redrive, the new attempt's DLQ entry or the operation's status. */
    static ItemOutcome outcome(DecisionKind kind, DecisionOutcome decision, String operationStatus, boolean failedAgain) {
        switch (decision) {
            case BLOCKED -> {
                return ItemOutcome.BLOCKED;
            }
            case ALREADY_DECIDED -> {
                return ItemOutcome.DECIDED_ELSEWHERE;
            }
            case REFUSED -> {
                return ItemOutcome.REFUSED;
            }
            default -> {
                // DONE (NOT_PUBLISHED is never recorded: a chunk's items are written before its dispatches go out)
            }
        }
        if (kind == DecisionKind.RESOLVE) {
            return ItemOutcome.RESOLVED;
        }
        if (kind == DecisionKind.DISCARD) {
            return ItemOutcome.DISCARDED;
        }
        if (failedAgain) {
            return ItemOutcome.FAILED_AGAIN;
        }
        return switch (OperationStatus.valueOf(operationStatus)) {
            case SUCCEEDED -> ItemOutcome.SUCCEEDED;
            case PENDING, RUNNING, RETRY_SCHEDULED -> ItemOutcome.STILL_RUNNING;
            // Never without its entry (both are written in one transaction); counted as what it is.
            case DEAD_LETTERED -> ItemOutcome.FAILED_AGAIN;
            case DISCARDED, CANCELLED, SUPERSEDED -> ItemOutcome.ENDED_OTHERWISE;
        };
    }
}
