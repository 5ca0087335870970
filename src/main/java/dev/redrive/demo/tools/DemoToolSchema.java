package dev.redrive.demo.tools;

import dev.redrive.store.Database;
import org.flywaydb.core.Flyway;

/**
 * The demo tools' tables ({@code demo_tool_calls}, {@code demo_tool_effects}, {@code demo_tool_lookups},
 * {@code demo_tool_servers}) in the namespace's schema, created when the demo tool server starts by migrations of
 * their own ({@code resources/dev/redrive/db/demo}, history in {@code demo_schema_history}): a namespace holds them only where the
 * demo runs, and the namespace's migrations know nothing of them. The namespace must be migrated first (the demo's
 * migration registers its payload columns for viewer masking) and the login must own its schema.
 */
public final class DemoToolSchema {
    private static final String HISTORY = "demo_schema_history";

    private DemoToolSchema() {
    }

    /** Creates or upgrades the demo tools' tables; running it again changes nothing. */
    public static void migrate(Database database) {
        Flyway.configure()
                .dataSource(database.dataSource())
                .schemas(database.schema())
                .defaultSchema(database.schema())
                .createSchemas(false)
                .table(HISTORY)
                .locations("classpath:dev/redrive/db/demo")
                // The schema already holds the namespace's tables: Flyway would take it for one to baseline. Baseline
                // 0 keeps V1 pending, so the demo's first migration runs everywhere (adopting tables that an older
                // namespace migration created).
                .baselineOnMigrate(true)
                .baselineVersion("0")
                .loggers("slf4j")
                .load()
                .migrate();
    }

    /** Whether the demo tools ever started in this namespace, so that their tables can be read. */
    static boolean exists(Database database) {
        return database.jdbc().queryOne("SELECT to_regclass('demo_tool_servers') IS NOT NULL", row -> row.getBoolean(1))
                .orElse(false);
    }
}
