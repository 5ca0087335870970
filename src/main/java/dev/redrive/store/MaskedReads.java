package dev.redrive.store;

/**
 * Where a connection reads the namespace's secrets from. A login that may not read the raw columns (a viewer: payloads,
 * raw messages, results, evidence, error texts and reasons are refused to it column by column) reads them through the
 * views of the same names in {@code <namespace>_masked}, which mask them by the console's rules; a login that may
 * (an operator, the schema owner) reads the tables themselves. Each connection decides once, when the pool opens it,
 * by putting the masked schema first on its search path; so every statement reads the same for both, and an operator's
 * plans never meet a view.
 */
final class MaskedReads {
    /** The column whose privilege tells the two apart; the migration that masks it refuses it to viewers. */
    private static final String PROBE_TABLE = "dlq_entries";
    private static final String PROBE_COLUMN = "raw_message";

    private MaskedReads() {
    }

    /** The schema of the masked views of a namespace. */
    static String schema(String namespace) {
        return namespace + "_masked";
    }

    /**
     * The statement a new connection runs. It only reads the catalog, so it fails for no login: one without the
     * masked schema (a namespace not yet migrated, a login outside both roles) keeps the namespace's search path.
     * The namespace is a checked identifier ({@code [a-z][a-z0-9_]*}), so it is safe as a literal.
     */
    static String connectionInitSql(String namespace) {
        return """
                SELECT set_config('search_path', format('%%I, %%I', m.nspname, n.nspname), false)
                  FROM pg_namespace n
                  JOIN pg_class t ON t.relnamespace = n.oid AND t.relname = '%s'
                  JOIN pg_namespace m ON m.nspname = '%s'
                 WHERE n.nspname = '%s'
                   AND has_schema_privilege(m.oid, 'USAGE')
                   AND NOT has_column_privilege(t.oid, '%s', 'SELECT')""".formatted(PROBE_TABLE, schema(namespace),
                namespace, PROBE_COLUMN);
    }
}
