package dev.redrive.worker;

import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.time.Duration;
import java.util.function.UnaryOperator;

/**
 * One worker of the demo charge tool that all tests of a class share, started before them and stopped after them,
 * with the kit to dispatch to it and read what it did. Register it, not the {@link TestNamespace} it is given: it
 * opens the namespace itself, since the worker must stop before the namespace closes, and JUnit does not promise an
 * order between two extensions registered as fields.
 */
final class ChargeWorkerFixture implements BeforeAllCallback, AfterAllCallback {
    private final TestNamespace ns;
    private final String name;
    private final Duration callTimeout;
    private final UnaryOperator<Worker.Builder> configure;
    private WorkerTestKit kit;

    /** A worker with the kit's quick leases and retries, whose calls to the tool time out after {@code callTimeout}. */
    ChargeWorkerFixture(TestNamespace ns, String name, Duration callTimeout) {
        this(ns, name, callTimeout, UnaryOperator.identity());
    }

    /** As {@link #ChargeWorkerFixture(TestNamespace, String, Duration)}, configured further by {@code configure}. */
    ChargeWorkerFixture(TestNamespace ns, String name, Duration callTimeout, UnaryOperator<Worker.Builder> configure) {
        this.ns = ns;
        this.name = name;
        this.callTimeout = callTimeout;
        this.configure = configure;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        ns.beforeAll(context);
        kit = new WorkerTestKit(ns);
        kit.start(configure.apply(kit.worker(name, kit.charge(callTimeout))));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        kit.close();
        ns.afterAll(context);
    }

    WorkerTestKit kit() {
        return kit;
    }
}
