package dev.redrive.store;

import org.flywaydb.core.api.callback.Callback;
import org.flywaydb.core.api.callback.Context;
import org.flywaydb.core.api.callback.Event;

import java.sql.SQLException;
import java.sql.Statement;

/**
 * Keeps the server's notices out of a migration's output while it runs. The migrations say CREATE SCHEMA IF NOT
 * EXISTS for the viewer's masked schema, and Flyway logs the server's "already exists, skipping" as a warning, several
 * times on every fresh namespace, where nothing is wrong. Warnings and errors still come through; the one notice that
 * matters, a role the migrating user could not create, is told by {@link Database#migrate} itself.
 */
final class QuietMigrationNotices implements Callback {

    @Override
    public boolean supports(Event event, Context context) {
        return event == Event.AFTER_CONNECT;
    }

    @Override
    public boolean canHandleInTransaction(Event event, Context context) {
        return true;
    }

    @Override
    public void handle(Event event, Context context) {
        // On the connections Flyway takes (it asks for its own; events around the migration would need one more).
        // Nothing else here reads notices, so the pooled connection may keep the setting.
        try (Statement statement = context.getConnection().createStatement()) {
            statement.execute("SET client_min_messages = warning");
        } catch (SQLException e) {
            throw StoreException.from(e);
        }
    }

    @Override
    public String getCallbackName() {
        return "quiet migration notices";
    }
}
