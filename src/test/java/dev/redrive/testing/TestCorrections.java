package dev.redrive.testing;

import dev.redrive.triage.redaction.Redactor;
import dev.redrive.store.Database;
import dev.redrive.triage.correction.Corrections;
import dev.redrive.worker.client.WorkerClient;

import java.time.Clock;

/** Corrections as the console makes them: published through the worker client, diffs masked by the default rules. */
public final class TestCorrections {
    private TestCorrections() {
    }

    /** @param database the login the corrections are taken under (an operator's, a viewer's) */
    public static Corrections in(TestNamespace ns, Database database) {
        return new Corrections(database, new WorkerClient(database, ns.redis(), Clock.systemUTC())::publish,
                Redactor.defaults(), Clock.systemUTC());
    }
}
