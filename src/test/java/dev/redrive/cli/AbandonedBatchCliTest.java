package dev.redrive.cli;

import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.BulkDeadLetters;
import dev.redrive.triage.json.TriageJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code redrive --batches} tells a batch whose process died from one that runs. */
class AbandonedBatchCliTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @Test
    void aBatchWhoseProcessDied_isListedAsAbandoned_itsJsonStillRunning() {
        BulkDeadLetters.create(ns.database(), "run-abandoned", "fp-abandoned", 3);
        CliRun started = CliRun.in(ns, "redrive", "--group", "fp-abandoned", "--reason", "why", "--operator", "ana");
        assertThat(started.exit()).as(started.err()).isZero();
        long id = ns.database().jdbc().queryLong("SELECT id FROM redrive_batches");
        // As a process killed mid-batch leaves it: still RUNNING, held by a lease that ran out.
        ns.database().jdbc().update("UPDATE redrive_batches SET state = 'RUNNING', owner = 'gone', "
                + "lease_until = now() - interval '1 minute' WHERE id = ?", id);

        CliRun list = CliRun.in(ns, "redrive", "--batches");

        assertThat(list.out()).containsPattern(id + "\\s+ABANDONED\\s+REDRIVE");
        assertThat(TriageJson.parse(CliRun.in(ns, "redrive", "--batches", "--json").out()).findValuesAsText("state"))
                .containsExactly("RUNNING");
    }
}
