package dev.redrive.console.wizard;

import dev.redrive.testing.DemoChargeWorker;
import dev.redrive.testing.TestNamespace;
import dev.redrive.worker.client.WorkerClient;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.time.Duration;

/**
 * The demo charge worker that the wizard tests of a class decide through, started before them and stopped after
 * them, with the wizard's backend over the namespace asking that tool. Register it, not the {@link TestNamespace} it
 * is given: it opens the namespace itself, since the worker must stop before the namespace closes.
 */
final class WizardWorker implements BeforeAllCallback, AfterAllCallback {
    private final TestNamespace ns;
    private final String consumerName;
    private DemoChargeWorker worker;
    private WizardBackend backend;

    WizardWorker(TestNamespace ns, String consumerName) {
        this.ns = ns;
        this.consumerName = consumerName;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        ns.beforeAll(context);
        worker = new DemoChargeWorker(ns, consumerName, Duration.ofMinutes(5));
        backend = WizardStage.backend(ns, worker.lookup());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        try {
            if (worker != null) {
                worker.close();
            }
        } finally {
            ns.afterAll(context);
        }
    }

    /** The client that dispatches to the worker. */
    WorkerClient client() {
        return worker.client();
    }

    WizardBackend backend() {
        return backend;
    }
}
