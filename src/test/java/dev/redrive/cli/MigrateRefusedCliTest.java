package dev.redrive.cli;

import dev.redrive.testing.DatabaseLogin;
import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** A login that may decide but not change the schema runs migrate: one line naming who may, exit 5, no stack trace. */
class MigrateRefusedCliTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @Test
    void migrateByAnOperatorLogin_isOneLine_namingTheOwner() {
        try (DatabaseLogin olga = DatabaseLogin.operator(ns, "olga")) {
            CliRun migrate = CliRun.as(olga, ns, "migrate");

            assertThat(migrate.exit()).isEqualTo(ExitCode.REFUSED);
            assertThat(migrate.err()).hasLineCount(1).startsWith("migrate: user " + olga.login()
                    + " may not migrate namespace " + ns.name() + " (ERROR: permission denied for table ")
                    .endsWith("): migrate as the namespace's owner, postgres\n");
        }
    }
}
