package dev.redrive.demo.tools;

import dev.redrive.testing.TestServers;
import dev.redrive.store.Database;
import dev.redrive.store.Jdbc;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A namespace migrated while V003, V040 and V041 created the demo tables in every namespace (and V120 masked them)
 * upgrades cleanly: its history is realigned for exactly those versions, its demo tables and rows stay, and the demo
 * tool server's own migration adopts them. Any other checksum difference is still refused.
 */
class DemoTablesUpgradeTest {
    /** The four files as namespaces applied them before the demo tables left the namespace's migrations. */
    private static final String BEFORE = "/upgrade/before-demo-split";

    private Database database;
    private Jdbc jdbc;

    @BeforeEach
    void migratedByTheEarlierFiles(@TempDir Path earlier) throws IOException, URISyntaxException {
        String namespace = "t_demotablesupgrade_" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x100000, 0xFFFFFF));
        database = Database.open(TestServers.config().withNamespace(namespace), 4);
        jdbc = database.jdbc();
        database.dropSchema();
        copy(Path.of(Objects.requireNonNull(getClass().getResource("/dev/redrive/db/migration")).toURI()), earlier);
        copy(Path.of(Objects.requireNonNull(getClass().getResource(BEFORE)).toURI()), earlier);
        Flyway.configure().dataSource(database.dataSource()).schemas(namespace).defaultSchema(namespace)
                .createSchemas(true).locations("filesystem:" + earlier).loggers("slf4j").load().migrate();
        jdbc.update("""
                INSERT INTO demo_tool_effects (idempotency_key, operation_id, tool, amount, result)
                VALUES ('r1:charge:0', 'r1:charge:0', 'demo.charge', 10, '{"charge_id":"ch_1"}')""");
    }

    @AfterEach
    void drop() {
        database.dropSchema();
        database.close();
    }

    @Test
    void theNewMigrationsAcceptTheEarlierHistory_andKeepItsDemoTablesAndRows() {
        MigrateResult upgraded = database.migrate();

        assertThat(upgraded.success).isTrue();
        assertThat(database.migrate().migrationsExecuted).isZero();
        assertThat(jdbc.queryLong("SELECT count(*) FROM demo_tool_effects WHERE idempotency_key = 'r1:charge:0'")).isEqualTo(1);
        assertThat(jdbc.queryLong("SELECT count(*) FROM redrive_schema_history WHERE NOT success")).isZero();
    }

    @Test
    void theDemoToolsAdoptTheTablesTheyFind_andStartOnTheUpgradedNamespace() {
        database.migrate();

        try (DemoToolServer tools = DemoToolServer.start(database)) {
            assertThat(DemoToolServer.lookupEndpoints(database)).containsEntry("demo.charge", tools.lookupEndpoint());
        }
        assertThat(jdbc.query("SELECT version || ' ' || success FROM demo_schema_history WHERE version IS NOT NULL"
                + " ORDER BY installed_rank", row -> row.getString(1))).containsExactly("0 true", "1 true", "2 true");
        assertThat(jdbc.queryLong("SELECT count(*) FROM demo_tool_effects")).isEqualTo(1);
        assertThat(jdbc.query("SELECT table_name || '.' || column_name FROM viewer_masked_columns"
                + " WHERE table_name LIKE 'demo%' ORDER BY 1", row -> row.getString(1)))
                .containsExactly("demo_tool_calls.body", "demo_tool_effects.result");
    }

    @Test
    void aHistoryWithAnotherChecksumForARetiredVersion_isStillRefused() {
        jdbc.update("UPDATE flyway_schema_history SET checksum = 42 WHERE version = '003'");

        assertThatThrownBy(database::migrate).isInstanceOf(FlywayException.class).hasMessageContaining("003");
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.list(from)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".sql")).toList()) {
                Files.copy(file, to.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }
}
