package dev.redrive.testing;

import dev.redrive.triage.decision.Decisions;
import dev.redrive.worker.client.WorkerClient;

import java.time.Clock;

/** The triage core's decisions as the CLI and the console take them: as the schema owner, published to the namespace's Redis. */
public final class TestDecisions {
    private TestDecisions() {
    }

    public static Decisions of(TestNamespace ns) {
        return of(ns, Clock.systemUTC());
    }

    /** @param clock the clock of the decisions and of the dispatches they publish */
    public static Decisions of(TestNamespace ns, Clock clock) {
        return new Decisions(ns.database(), new WorkerClient(ns.database(), ns.redis(), clock), clock);
    }
}
