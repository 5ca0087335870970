package dev.redrive.bench.generate;

import dev.redrive.store.Jdbc;

import java.util.ArrayList;
import java.util.List;

/**
 * Lets one transaction load many rows into a table the way a restore does: the table's secondary indexes and its
 * foreign keys are dropped first and rebuilt once at the end, which is many times faster than maintaining them row by
 * row. DDL is transactional in PostgreSQL, so a failed load leaves the table exactly as it was. The table is locked
 * for the rest of the transaction.
 */
final class BulkLoad {
    private static final String SECONDARY_INDEXES = """
            SELECT format('DROP INDEX %I.%I', n.nspname, c.relname), pg_get_indexdef(i.indexrelid)
            FROM pg_index i
            JOIN pg_class c ON c.oid = i.indexrelid
            JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE i.indrelid = to_regclass(?)
              AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)""";

    private static final String FOREIGN_KEYS = """
            SELECT format('ALTER TABLE %s DROP CONSTRAINT %I', k.conrelid::regclass, k.conname),
                   format('ALTER TABLE %s ADD CONSTRAINT %I %s', k.conrelid::regclass, k.conname,
                          pg_get_constraintdef(k.oid))
            FROM pg_constraint k
            WHERE k.conrelid = to_regclass(?) AND k.contype = 'f'""";

    private record Ddl(String drop, String restore) {
    }

    private final Jdbc jdbc;
    private final List<String> restores = new ArrayList<>();

    BulkLoad(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** Drops the table's secondary indexes and foreign keys until {@link #restore()}. Call inside the transaction. */
    void defer(String table) {
        List<Ddl> ddl = new ArrayList<>(jdbc.query(SECONDARY_INDEXES, row -> new Ddl(row.getString(1), row.getString(2)), table));
        ddl.addAll(jdbc.query(FOREIGN_KEYS, row -> new Ddl(row.getString(1), row.getString(2)), table));
        for (Ddl statement : ddl) {
            jdbc.update(statement.drop());
            restores.add(statement.restore());
        }
    }

    /** Rebuilds every index and foreign key that {@link #defer} dropped, validating the keys in one pass each. */
    void restore() {
        jdbc.update("SET LOCAL maintenance_work_mem = '256MB'");
        for (String statement : restores) {
            jdbc.update(statement);
        }
        restores.clear();
    }
}
