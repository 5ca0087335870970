package dev.redrive.store;

import dev.redrive.testing.TestNamespace;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MigrationTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @Test
    void migratingAnUpToDateSchemaAgain_changesNothing() {
        MigrateResult again = ns.database().migrate();

        assertThat(again.migrationsExecuted).isZero();
        assertThat(again.success).isTrue();
    }

    @Test
    void everyTableOfTheDesignLivesInTheNamespaceSchema() {
        List<String> tables = ns.database().jdbc().query(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = ? ORDER BY 1",
                row -> row.getString(1), ns.name());

        assertThat(tables).contains("runs", "operations", "attempts", "dlq_entries", "tool_schemas", "approvals",
                "redrive_commands", "reconciliations", "audit_log");
    }

    @Test
    void aMigratedNamespaceHoldsNoTableOfTheDemo() {
        assertThat(ns.database().jdbc().query("""
                SELECT table_name FROM information_schema.tables WHERE table_schema = ? AND table_name LIKE 'demo%'""",
                row -> row.getString(1), ns.name())).isEmpty();
        assertThat(ns.database().jdbc().queryLong("SELECT count(*) FROM viewer_masked_columns WHERE table_name LIKE 'demo%'"))
                .isZero();
    }

    @Test
    void everyTriggerAndOwnerRightsFunctionResolvesNamesInPgCatalogFirst() {
        // A function that checks who did what, or runs as the schema owner, must not take "=" or a table from a schema
        // that a login may create objects in and put first on its search_path.
        List<String> unpinned = ns.database().jdbc().query("""
                SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                 WHERE n.nspname = ? AND (p.prosecdef OR p.prorettype = 'trigger'::regtype OR p.prokind = 'p')
                   AND NOT coalesce(p.proconfig, '{}') @> ARRAY['search_path=pg_catalog, ' || quote_ident(n.nspname) || ', pg_temp']
                 ORDER BY 1""", row -> row.getString(1), ns.name());

        assertThat(unpinned).isEmpty();
        assertThat(ns.database().jdbc().queryLong("""
                SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                 WHERE n.nspname = ? AND p.prorettype = 'trigger'::regtype""", ns.name())).isGreaterThanOrEqualTo(10);
    }

    @Test
    void nobodyButTheOwnerMayExecuteAnOwnerRightsFunction() {
        // A login that may use the schema could otherwise attach one to a table of its own (V282, V283) or call it, and
        // run it with the owner's rights.
        List<String> owned = ns.database().jdbc().query("""
                SELECT p.proname
                       || CASE WHEN has_function_privilege('public', p.oid, 'EXECUTE') THEN ' public' ELSE '' END
                       || CASE WHEN has_function_privilege(?, p.oid, 'EXECUTE') THEN ' operator' ELSE '' END
                       || CASE WHEN has_function_privilege(?, p.oid, 'EXECUTE') THEN ' viewer' ELSE '' END
                  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                 WHERE n.nspname = ? AND p.prosecdef ORDER BY 1""", row -> row.getString(1),
                ns.database().operatorRole(), ns.database().viewerRole(), ns.name());

        assertThat(owned).contains("decision_needs_audit_line", "dlq_summary_on_update", "dlq_summary_on_truncate")
                .allSatisfy(function -> assertThat(function).as("who may execute it").doesNotContain(" "));
    }

    @Test
    void everyColumnHoldingAnIdentifier_comparesByBytes() {
        // V251: joins between these columns keep using their indexes only while they all share one collation.
        List<String> notC = ns.database().jdbc().query("""
                SELECT c.table_name || '.' || c.column_name FROM information_schema.columns c
                  JOIN information_schema.tables t USING (table_schema, table_name)
                 WHERE c.table_schema = ? AND t.table_type = 'BASE TABLE' AND c.data_type = 'text'
                   AND c.column_name IN ('operation_id', 'run_id', 'idempotency_key', 'corrects', 'superseded_by')
                   AND c.collation_name IS DISTINCT FROM 'C'
                 ORDER BY 1""", row -> row.getString(1), ns.name());
        long identifierColumns = ns.database().jdbc().queryLong("""
                SELECT count(*) FROM information_schema.columns
                 WHERE table_schema = ? AND column_name IN ('operation_id', 'run_id', 'idempotency_key')""", ns.name());

        assertThat(notC).isEmpty();
        assertThat(identifierColumns).isGreaterThanOrEqualTo(10);
    }
}
