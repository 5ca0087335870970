package dev.redrive.triage.detail;

import dev.redrive.store.Database;
import dev.redrive.store.Jdbc;

import java.util.Optional;

/** Loads one DLQ entry by its id, with its audit trail and, when it has one, its operation. */
public final class EntryDetailsLoader {
    private static final String AUDIT = "SELECT * FROM audit_log WHERE dlq_entry_id = ? ORDER BY at, id";

    private final Jdbc jdbc;
    private final OperationDetailsLoader operations;

    public EntryDetailsLoader(Database database) {
        this.jdbc = database.jdbc();
        this.operations = new OperationDetailsLoader(database);
    }

    /** The entry, or empty when the store does not know it. */
    public Optional<EntryDetails> load(long entryId) {
        return operations.entry(entryId).map(entry -> new EntryDetails(entry,
                jdbc.query(AUDIT, OperationDetailsLoader::audit, entryId),
                entry.ofOperation() ? operations.load(entry.operationId()).orElse(null) : null));
    }

    /** Like {@link #load} but fails with a message naming the entry when it is unknown. */
    public EntryDetails require(long entryId) {
        return load(entryId).orElseThrow(() -> operations.unknownEntry(entryId));
    }
}
