package dev.redrive.triage.query;

import dev.redrive.health.DlqFixture;
import dev.redrive.store.Jdbc;
import dev.redrive.store.StoreException;
import dev.redrive.testing.DatabaseLogin;
import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The DLQ summary's trigger functions run as the namespace's owner: a login that may only read (a viewer) cannot
 * attach one to a table of its own to run it as the owner, while the triggers on the DLQ go on keeping the counts for
 * every login's writes.
 */
class SummaryTriggersTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static DatabaseLogin viewer;

    @BeforeAll
    static void entries() {
        DlqFixture.insert(ns.database(), "run-summary", 12, "TRANSIENT", "demo.charge", "fp-summary", "NONE", "OPEN",
                Instant.parse("2026-12-01T00:00:00Z"));
        viewer = DatabaseLogin.viewer(ns, "summary_viewer");
    }

    @AfterAll
    static void close() {
        viewer.close();
    }

    @Test
    void aViewer_cannotRunTheSummarysTriggersAsTheOwner_throughATableOfItsOwn() {
        Jdbc asViewer = viewer.database().jdbc();
        for (String function : new String[]{"dlq_summary_on_truncate", "dlq_summary_on_insert", "dlq_summary_on_update",
                "dlq_summary_on_delete"}) {
            assertThatThrownBy(() -> asViewer.inTransaction(() -> {
                asViewer.update("CREATE TEMP TABLE IF NOT EXISTS mine (x int)");
                asViewer.update("CREATE TRIGGER borrowed AFTER TRUNCATE ON mine FOR EACH STATEMENT EXECUTE FUNCTION "
                        + ns.name() + "." + function + "()");
                asViewer.update("TRUNCATE mine");
            })).as(function).isInstanceOf(StoreException.class).hasMessageContaining("permission denied for function");
        }

        assertThat(ns.jdbc().queryLong("SELECT sum(entries) FROM dlq_summary WHERE error_fingerprint = 'fp-summary'"))
                .isEqualTo(12);
    }
}
