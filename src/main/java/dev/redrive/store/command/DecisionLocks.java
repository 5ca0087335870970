package dev.redrive.store.command;

import dev.redrive.store.Jdbc;
import dev.redrive.store.deadletter.DeadLetterStore;

import java.util.Collection;
import java.util.List;

/**
 * The locks a decision takes before it changes anything (redrives, resolves, discards, corrections alike).
 * <p>
 * LOCK ORDER. A decision locks the operations it changes, then their own entries (and entries without an operation it
 * decides), each set in one statement and in a fixed order: operations by operation_id in bytes (COLLATE "C", as the
 * worker's claims and commits take them), entries by id. Two batches sharing items, a batch and a single decision, or
 * a decision and a worker's commit then wait for each other instead of deadlocking. A target named by its entry id
 * alone is locked through the operation that entry was entered for.
 */
public final class DecisionLocks {
    private static final String LOCK_OPERATIONS = """
            SELECT operation_id FROM operations
             WHERE operation_id = ANY (ARRAY(SELECT unnest(?::text[])
                                             UNION SELECT operation_id FROM dlq_entries
                                                    WHERE id = ANY (?::text[]::bigint[]) AND %s))
             ORDER BY operation_id COLLATE "C"
               FOR UPDATE""".formatted(DeadLetterStore.OWN_ENTRY);
    private static final String LOCK_ENTRIES = """
            SELECT id FROM dlq_entries
             WHERE (operation_id = ANY (?) AND %s) OR id = ANY (?::text[]::bigint[])
             ORDER BY id
               FOR UPDATE""".formatted(DeadLetterStore.OWN_ENTRY);

    private final Jdbc jdbc;

    public DecisionLocks(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** Locks the operation and its own entries until the transaction ends. */
    public void lock(String operationId) {
        lockAll(List.of(operationId), List.of());
    }

    /**
     * Locks, until the transaction ends, the operations named and those the named entries were entered for, then
     * their own entries and the named entries (see LOCK ORDER).
     */
    public void lockAll(Collection<String> operationIds, Collection<Long> entryIds) {
        String[] entries = entryIds.stream().map(String::valueOf).toArray(String[]::new);
        List<String> locked = jdbc.query(LOCK_OPERATIONS, row -> row.getString(1), operationIds.toArray(String[]::new),
                entries);
        jdbc.query(LOCK_ENTRIES, row -> row.getLong(1), locked.toArray(String[]::new), entries);
    }
}
