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
}
