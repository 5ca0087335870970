package dev.redrive.store;

import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AuditLogAppendOnlyTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private Jdbc jdbc;

    @BeforeEach
    void appendOneEntry() {
        jdbc = ns.database().jdbc();
        jdbc.update("INSERT INTO audit_log (actor, action, reason) VALUES ('alice', 'DISCARD', 'duplicate order')");
    }

    @Test
    void updatingHistory_isRefusedByTheDatabase() {
        assertThatThrownBy(() -> jdbc.update("UPDATE audit_log SET actor = 'mallory'"))
                .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.isRefused()).isTrue())
                .hasMessageContaining("append-only");
        assertThat(jdbc.queryLong("SELECT count(*) FROM audit_log WHERE actor = 'mallory'")).isZero();
    }

    @Test
    void deletingHistory_isRefusedByTheDatabase() {
        long before = jdbc.queryLong("SELECT count(*) FROM audit_log");

        assertThatThrownBy(() -> jdbc.update("DELETE FROM audit_log"))
                .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.isRefused()).isTrue());
        assertThatThrownBy(() -> jdbc.update("TRUNCATE audit_log"))
                .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.isRefused()).isTrue());
        assertThat(jdbc.queryLong("SELECT count(*) FROM audit_log")).isEqualTo(before);
    }
}
