package dev.redrive.testing;

import dev.redrive.config.RedriveConfig;
import dev.redrive.store.Database;

import java.util.UUID;

/**
 * A database login that is a member of the test namespace's viewer role, with a pool opened as it: an operator who may
 * look but not decide. Closing it closes the pool and drops the login.
 */
public final class ViewerLogin implements AutoCloseable {
    private final TestNamespace ns;
    private final RedriveConfig config;
    private final Database database;

    private ViewerLogin(TestNamespace ns, RedriveConfig config) {
        this.ns = ns;
        this.config = config;
        this.database = Database.open(config, 4);
    }

    /** Creates the login {@code <namespace>_<name>} in the namespace's viewer role and connects as it. */
    public static ViewerLogin create(TestNamespace ns, String name) {
        String login = ns.name() + "_" + name;
        String password = UUID.randomUUID().toString();
        ns.database().jdbc().update("CREATE ROLE \"" + login + "\" LOGIN PASSWORD '" + password + "' IN ROLE \""
                + ns.database().viewerRole() + "\"");
        RedriveConfig admin = ns.config();
        return new ViewerLogin(ns, new RedriveConfig(admin.pgUrl(), login, password, admin.redisUri(), admin.namespace()));
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
