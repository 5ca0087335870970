package dev.redrive.testing;

import dev.redrive.config.RedriveConfig;
import dev.redrive.store.Database;

import java.util.UUID;

/**
 * A database login of the test namespace's viewer role (may look, not decide) or operator role (may decide), with a
 * pool opened as it. Closing it closes the pool and drops the login.
 */
public final class DatabaseLogin implements AutoCloseable {
    private final TestNamespace ns;
    private final RedriveConfig config;
    private final Database database;

    private DatabaseLogin(TestNamespace ns, RedriveConfig config) {
        this.ns = ns;
        this.config = config;
        this.database = Database.open(config, 4);
    }

    /** Creates the login {@code <namespace>_<name>} in the namespace's viewer role and connects as it. */
    public static DatabaseLogin viewer(TestNamespace ns, String name) {
        return create(ns, name, ns.database().viewerRole());
    }

    /** Creates the login {@code <namespace>_<name>} in the namespace's operator role and connects as it. */
    public static DatabaseLogin operator(TestNamespace ns, String name) {
        return create(ns, name, ns.database().operatorRole());
    }

    /** Creates the login {@code <namespace>_<name>} as a member of {@code role} and connects as it. */
    public static DatabaseLogin memberOf(TestNamespace ns, String name, String role) {
        return create(ns, name, role);
    }

    private static DatabaseLogin create(TestNamespace ns, String name, String role) {
        String login = ns.name() + "_" + name;
        String password = UUID.randomUUID().toString();
        ns.database().jdbc().update("CREATE ROLE \"" + login + "\" LOGIN PASSWORD '" + password + "' IN ROLE \""
                + role + "\"");
        RedriveConfig admin = ns.config();
        return new DatabaseLogin(ns, new RedriveConfig(admin.pgUrl(), login, password, admin.redisUri(), admin.namespace()));
    }

    public RedriveConfig config() {
        return config;
    }

    public Database database() {
        return database;
    }

    public String login() {
        return config.pgUser();
    }

    @Override
    public void close() {
        database.close();
        ns.database().jdbc().update("DROP ROLE IF EXISTS \"" + login() + "\"");
    }
}
