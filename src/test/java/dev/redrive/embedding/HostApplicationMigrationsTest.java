package dev.redrive.embedding;

import dev.redrive.testing.TestServers;
import dev.redrive.store.Database;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A host application that embeds the worker keeps its own Flyway migrations at Flyway's default location
 * ({@code classpath:db/migration}, with a V1 of its own: src/test/resources/db/migration) in the same database. Both
 * migrate, in either order and again; neither runs the other's files, nor writes into the other's schema or history.
 */
class HostApplicationMigrationsTest {
    private String hostSchema;
    private Database redrive;

    @BeforeEach
    void open() {
        String suffix = Integer.toHexString(ThreadLocalRandom.current().nextInt(0x100000, 0xFFFFFF));
        hostSchema = "t_host_" + suffix;
        redrive = Database.open(TestServers.config().withNamespace("t_hostredrive_" + suffix), 4);
        redrive.dropSchema();
    }

    @AfterEach
    void drop() {
        redrive.jdbc().update("DROP SCHEMA IF EXISTS \"" + hostSchema + "\" CASCADE");
        redrive.dropSchema();
        redrive.close();
    }

    @Test
    void theHostsMigrationsAndRedrivesShareADatabase_eachInItsOwnSchemaAndHistory() {
        MigrateResult host = hostFlyway().migrate();
        redrive.migrate();
        MigrateResult hostAgain = hostFlyway().migrate();

        assertThat(host.migrationsExecuted).as("the host's own migrations, and only those").isEqualTo(2);
        assertThat(hostAgain.migrationsExecuted).isZero();
        assertThat(redrive.migrate().migrationsExecuted).isZero();
        assertThat(tables(hostSchema)).containsExactlyInAnyOrder("flyway_schema_history", "orders");
        assertThat(redrive.jdbc().query("SELECT script FROM \"" + hostSchema + "\".flyway_schema_history"
                + " WHERE version IS NOT NULL ORDER BY installed_rank", row -> row.getString(1)))
                .containsExactly("V1__host_orders.sql", "V2__host_order_notes.sql");
        assertThat(tables(redrive.schema())).contains("operations", "dlq_entries", "redrive_schema_history")
                .doesNotContain("orders", "flyway_schema_history");
        assertThat(redrive.jdbc().query("SELECT script FROM \"" + redrive.schema() + "\".redrive_schema_history"
                + " WHERE script LIKE 'V%host%'", row -> row.getString(1))).isEmpty();
    }

    @Test
    void aNamespaceWhoseHistoryHasFlywaysDefaultName_isCarriedOverWithoutRunningAnythingAgain() {
        redrive.migrate();
        long applied = redrive.jdbc().queryLong("SELECT count(*) FROM redrive_schema_history");
        redrive.jdbc().update("ALTER TABLE redrive_schema_history RENAME TO flyway_schema_history");

        MigrateResult upgraded = redrive.migrate();

        assertThat(upgraded.migrationsExecuted).isZero();
        assertThat(tables(redrive.schema())).contains("redrive_schema_history").doesNotContain("flyway_schema_history");
        assertThat(redrive.jdbc().queryLong("SELECT count(*) FROM redrive_schema_history")).isEqualTo(applied);
    }

    /** The host's Flyway as a host configures it: defaults, its own schema. */
    private Flyway hostFlyway() {
        return Flyway.configure().dataSource(redrive.dataSource()).schemas(hostSchema).defaultSchema(hostSchema)
                .loggers("slf4j").load();
    }

    private List<String> tables(String schema) {
        return redrive.jdbc().query("SELECT table_name FROM information_schema.tables WHERE table_schema = ?",
                row -> row.getString(1), schema);
    }
}
