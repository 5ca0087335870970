package dev.redrive.store;

import dev.redrive.testing.TestServers;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * V252: a new namespace's tables are left never analyzed, so that PostgreSQL plans look-ups by key on them as index
 * scans while they are still small (StaleStatisticsTest shows what a plan made on "analyzed, empty" cost a worker);
 * a namespace that V251 created and that has rows by now gets statistics instead.
 */
class NewNamespaceStatisticsTest {
    private static final List<String> WORKER_TABLES = List.of("runs", "operations", "attempts", "reconciliations",
            "redrive_commands", "dlq_entries");
    private static final String RELTUPLES = """
            SELECT c.relname, c.reltuples FROM pg_class c
             WHERE c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
               AND c.relname = ANY (?) ORDER BY 1""";

    private Database database;
    private String namespace;

    @BeforeEach
    void open() {
        namespace = "t_newnamespacestatistics_" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x100000, 0xFFFFFF));
        database = Database.open(TestServers.config().withNamespace(namespace), 4);
        database.dropSchema();
    }

    @AfterEach
    void drop() {
        database.dropSchema();
        database.close();
    }

    @Test
    void aNewNamespace_leavesItsTablesNeverAnalyzed() {
        database.migrate();

        assertThat(database.jdbc().query(RELTUPLES, row -> row.getString(1) + " " + row.getFloat(2),
                (Object) WORKER_TABLES.toArray(String[]::new)))
                .hasSize(WORKER_TABLES.size())
                .allMatch(line -> line.endsWith(" -1.0"));
    }

    @Test
    void aNamespaceCreatedAtV251WithRowsSince_isAnalyzed() {
        Flyway.configure().dataSource(database.dataSource()).schemas(namespace).defaultSchema(namespace)
                .createSchemas(true).locations(Database.MIGRATIONS).target("251").loggers("slf4j").load().migrate();
        database.jdbc().update("INSERT INTO runs (run_id) SELECT 'run-' || n FROM generate_series(1, 500) n");

        database.migrate();

        assertThat(database.jdbc().query(RELTUPLES, row -> row.getFloat(2), (Object) new String[] {"runs"}))
                .containsExactly(500f);
        assertThat(database.jdbc().query(RELTUPLES, row -> row.getFloat(2), (Object) new String[] {"operations"}))
                .as("an empty table keeps what V251 found").containsExactly(0f);
    }
}
