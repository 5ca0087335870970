package dev.redrive.report;

import dev.redrive.triage.redaction.Redactor;
import dev.redrive.testing.TestNamespace;
import dev.redrive.bench.generate.DlqGenerator;
import dev.redrive.triage.query.DlqFilter;
import dev.redrive.triage.query.DlqRow;
import dev.redrive.triage.query.FingerprintGroup;
import dev.redrive.triage.query.JdbcDlqQueries;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The DLQ as the console and the CLI list it: error texts masked, searches still over what is stored. */
class RedactedDlqQueriesTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();
    private static final String LEAKY = "ledger refused: password=hunter2 for card 4111 1111 1111 1111";
    private static long leakyId;

    @BeforeAll
    static void seed() {
        new DlqGenerator(ns.database(), Clock.systemUTC()).generate(40, "redacted");
        leakyId = ns.database().jdbc().queryLong("SELECT min(id) FROM dlq_entries");
        ns.database().jdbc().update("UPDATE dlq_entries SET error_message = ?, error_fingerprint = 'fp-leaky' WHERE id = ?",
                LEAKY, leakyId);
    }

    private final RedactedDlqQueries queries = new RedactedDlqQueries(new JdbcDlqQueries(ns.database()), Redactor.defaults());

    @Test
    void pagesShowTheErrorWithItsSecretsMasked_andEverythingElseAsStored() {
        List<DlqRow> stored = new JdbcDlqQueries(ns.database()).firstPage(DlqFilter.none(), 100).rows();
        List<DlqRow> shown = queries.firstPage(DlqFilter.none(), 100).rows();

        DlqRow leaky = shown.stream().filter(row -> row.id() == leakyId).findFirst().orElseThrow();
        assertThat(leaky.errorMessage()).isEqualTo("ledger refused: password=[redacted] for card [redacted]");
        assertThat(shown).hasSameSizeAs(stored);
        for (int i = 0; i < stored.size(); i++) {
            DlqRow row = stored.get(i);
            if (row.id() != leakyId) {
                assertThat(shown.get(i)).isEqualTo(row);
            }
        }
    }

    @Test
    void aSearchStillFindsTheEntryByWhatItsErrorReallySays() {
        List<DlqRow> found = queries.firstPage(DlqFilter.builder().text("hunter2").build(), 10).rows();

        assertThat(found).extracting(DlqRow::id).containsExactly(leakyId);
        assertThat(found.get(0).errorMessage()).doesNotContain("hunter2");
    }

    @Test
    void groupsShowTheirSampleErrorMasked() {
        FingerprintGroup group = queries.groups(DlqFilter.none()).stream()
                .filter(g -> g.fingerprint().equals("fp-leaky")).findFirst().orElseThrow();

        assertThat(group.sampleMessage()).isEqualTo("ledger refused: password=[redacted] for card [redacted]");
    }
}
