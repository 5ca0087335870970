package dev.redrive.store.tool;

import dev.redrive.store.Jdbc;

import java.time.Instant;
import java.util.Optional;

/**
 * The current schema version of each tool, with the history of earlier ones. A worker registers its tools here when it
 * starts; redrive precondition 2 compares an operation's dispatched version with the current one.
 */
public final class ToolSchemaStore {
    private static final String CURRENT = "SELECT version FROM tool_schemas WHERE tool = ? AND is_current";

    private static final String RETIRE_CURRENT = """
            UPDATE tool_schemas SET is_current = false WHERE tool = ? AND is_current AND version <> ?
            """;

    private static final String MAKE_CURRENT = """
            INSERT INTO tool_schemas (tool, version, is_current, registered_by, registered_at)
            VALUES (?, ?, true, ?, ?)
            ON CONFLICT (tool, version) DO UPDATE
               SET is_current = true, registered_by = EXCLUDED.registered_by, registered_at = EXCLUDED.registered_at
             WHERE NOT tool_schemas.is_current
            """;

    private static final String LOCK_TOOL = "SELECT pg_advisory_xact_lock(hashtext('tool_schemas:' || ?))";

    private final Jdbc jdbc;

    public ToolSchemaStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Makes {@code version} the tool's current schema version; the one it replaces stays in the history.
     *
     * @return true when the current version changed, false when it already was {@code version}
     */
    public boolean register(String tool, String version, String registeredBy, Instant now) {
        return jdbc.inTransaction(() -> {
            jdbc.query(LOCK_TOOL, row -> null, tool);
            if (current(tool).filter(version::equals).isPresent()) {
                return false;
            }
            jdbc.update(RETIRE_CURRENT, tool, version);
            jdbc.update(MAKE_CURRENT, tool, version, registeredBy, now);
            return true;
        });
    }

    public Optional<String> current(String tool) {
        return jdbc.queryOne(CURRENT, row -> row.getString(1), tool);
    }
}
