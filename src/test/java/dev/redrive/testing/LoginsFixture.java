package dev.redrive.testing;

import dev.redrive.store.Jdbc;
import dev.redrive.triage.DeadLetterFixture;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.worker.client.WorkerClient;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The set-up of a test class that acts as real database logins: the schema owner's connection (to read what a login
 * wrote), dead-letter entries of tool {@code demo.charge} version 1, and the operator and viewer logins the class asks
 * for, each dropped after the class. Register it, not the {@link TestNamespace} it is given: it opens the namespace
 * itself, since the logins must be dropped before the namespace closes, and JUnit does not promise an order between
 * two extensions registered as fields.
 */
public final class LoginsFixture implements BeforeAllCallback, AfterAllCallback {
    private final TestNamespace ns;
    private final List<DatabaseLogin> logins = new ArrayList<>();
    private DeadLetterFixture deadLetters;

    public LoginsFixture(TestNamespace ns) {
        this.ns = ns;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        ns.beforeAll(context);
        deadLetters = DeadLetterFixture.withChargeTool(ns.database());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        logins.forEach(DatabaseLogin::close);
        logins.clear();
        ns.afterAll(context);
    }

    public Jdbc admin() {
        return ns.database().jdbc();
    }

    public DeadLetterFixture deadLetters() {
        return deadLetters;
    }

    /** A login {@code <namespace>_<name>} in the operator role, dropped after the class. */
    public DatabaseLogin operator(String name) {
        return kept(DatabaseLogin.operator(ns, name));
    }

    /** A login {@code <namespace>_<name>} in the viewer role, dropped after the class. */
    public DatabaseLogin viewer(String name) {
        return kept(DatabaseLogin.viewer(ns, name));
    }

    /** A login {@code <namespace>_<name>} that is a member of {@code role}, dropped after the class. */
    public DatabaseLogin memberOf(String name, String role) {
        return kept(DatabaseLogin.memberOf(ns, name, role));
    }

    /** The triage core's decisions taken as {@code login}: through its own pool, publishing to the namespace's Redis. */
    public Decisions decisionsAs(DatabaseLogin login) {
        return new Decisions(login.database(), new WorkerClient(login.database(), ns.redis(), Clock.systemUTC()),
                Clock.systemUTC());
    }

    private DatabaseLogin kept(DatabaseLogin login) {
        logins.add(login);
        return login;
    }
}
