package dev.redrive.store;

/**
 * The namespace's migration history, in a table of Redrive's own ({@value #TABLE}) so that it never mixes with a host
 * application's Flyway history when both share a database. Namespaces migrated before kept it under Flyway's default
 * name in their schema: that table is renamed, rows and all, so nothing runs again.
 */
final class MigrationHistory {
    static final String TABLE = "redrive_schema_history";
    private static final String FLYWAY_DEFAULT = "flyway_schema_history";

    private MigrationHistory() {
    }

    /** Renames the schema's history from Flyway's default name, once; true when it did. */
    static boolean adopt(Jdbc jdbc, String schema) {
        boolean earlier = jdbc.queryOne("SELECT to_regclass(?) IS NOT NULL AND to_regclass(?) IS NULL",
                row -> row.getBoolean(1), qualified(schema, FLYWAY_DEFAULT), qualified(schema, TABLE)).orElse(false);
        if (!earlier) {
            return false;
        }
        jdbc.update("ALTER TABLE " + qualified(schema, FLYWAY_DEFAULT) + " RENAME TO " + TABLE);
        return true;
    }

    private static String qualified(String schema, String table) {
        return "\"" + schema + "\"." + table;
    }
}
