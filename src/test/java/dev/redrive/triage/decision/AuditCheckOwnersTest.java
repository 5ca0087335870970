package dev.redrive.triage.decision;

import dev.redrive.store.Jdbc;
import dev.redrive.store.StoreException;
import dev.redrive.testing.DatabaseLogin;
import dev.redrive.testing.LoginsFixture;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.DeadLetterFixture.Created;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Who the audit-line check lets through without a line (V283), as logins that are not superusers: members of the login
 * that migrated the namespace (it owns the tables), and members of the schema's owner where that is another role, as
 * before; an operator is refused.
 */
class AuditCheckOwnersTest {
    static final TestNamespace ns = new TestNamespace();
    @RegisterExtension
    static final LoginsFixture logins = new LoginsFixture(ns);

    private static final String DECIDE_BY_HAND = "UPDATE dlq_entries SET decision_state = 'DISCARDED', "
            + "decided_by = 'by hand', decided_at = now(), version = version + 1 WHERE id = ?";

    @Test
    void aMemberOfTheLoginThatMigrated_decidesBySqlWithoutALine_anOperatorCannot() {
        String migrator = logins.admin().queryOne("SELECT current_user", row -> row.getString(1)).orElseThrow();
        DatabaseLogin member = logins.memberOf("migrator_member", migrator);
        DatabaseLogin operator = logins.operator("audit_operator");
        Created mine = logins.deadLetters().deadLettered("run-owners", "charge").create();
        Created theirs = logins.deadLetters().deadLettered("run-owners", "ship").create();

        member.database().jdbc().update(DECIDE_BY_HAND, mine.dlqEntryId());

        assertThat(state(mine)).isEqualTo("DISCARDED");
        assertRefused(operator.database().jdbc(), theirs);
        assertThat(state(theirs)).isEqualTo("OPEN");
    }

    @Test
    void aMemberOfTheSchemasOwner_whereThatIsAnotherRole_stillDecidesBySqlWithoutALine() {
        Jdbc admin = logins.admin();
        String migrator = admin.queryOne("SELECT current_user", row -> row.getString(1)).orElseThrow();
        String schemaOwner = ns.name() + "_schema_owner";
        admin.update("CREATE ROLE \"" + schemaOwner + "\" NOLOGIN");
        try {
            admin.update("GRANT ALL ON ALL TABLES IN SCHEMA \"" + ns.name() + "\" TO \"" + schemaOwner + "\"");
            admin.update("ALTER SCHEMA \"" + ns.name() + "\" OWNER TO \"" + schemaOwner + "\"");
            DatabaseLogin member = logins.memberOf("schema_owner_member", schemaOwner);
            Created op = logins.deadLetters().deadLettered("run-schema-owner", "charge").create();

            member.database().jdbc().update(DECIDE_BY_HAND, op.dlqEntryId());

            assertThat(state(op)).isEqualTo("DISCARDED");
        } finally {
            admin.update("ALTER SCHEMA \"" + ns.name() + "\" OWNER TO \"" + migrator + "\"");
            admin.update("DROP OWNED BY \"" + schemaOwner + "\"");
            admin.update("DROP ROLE \"" + schemaOwner + "\"");
        }
    }

    private static String state(Created op) {
        return logins.admin().queryOne("SELECT decision_state FROM dlq_entries WHERE id = ?", row -> row.getString(1),
                op.dlqEntryId()).orElseThrow();
    }

    private static void assertRefused(Jdbc login, Created op) {
        assertThatThrownBy(() -> login.update(DECIDE_BY_HAND, op.dlqEntryId())).isInstanceOf(StoreException.class)
                .matches(e -> ((StoreException) e).isRefused(), "refused by the database")
                .hasMessageContaining("has no audit line in its transaction");
    }
}
