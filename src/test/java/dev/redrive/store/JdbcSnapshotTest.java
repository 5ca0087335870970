package dev.redrive.store;

import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Reads made in one snapshot agree with each other, whatever commits between them, and write nothing. */
class JdbcSnapshotTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @Test
    void readsInOneSnapshot_doNotSeeWhatCommitsBetweenThem_andCannotWrite() {
        Jdbc jdbc = ns.database().jdbc();
        jdbc.update("CREATE TABLE snapshot_rows (x int)");

        List<Long> counts = jdbc.inSnapshot(() -> {
            long before = jdbc.queryLong("SELECT count(*) FROM snapshot_rows");
            // Another thread, so another connection, committing on its own.
            CompletableFuture.runAsync(() -> jdbc.update("INSERT INTO snapshot_rows VALUES (1)")).join();
            return List.of(before, jdbc.queryLong("SELECT count(*) FROM snapshot_rows"));
        });

        assertThat(counts).containsExactly(0L, 0L);
        assertThat(jdbc.queryLong("SELECT count(*) FROM snapshot_rows")).isEqualTo(1);
        assertThatThrownBy(() -> jdbc.inSnapshot(() -> jdbc.update("INSERT INTO snapshot_rows VALUES (2)")))
                .isInstanceOf(StoreException.class).hasMessageContaining("read-only transaction");
    }
}
