package dev.redrive.cli;

import dev.redrive.testing.TestServers;
import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@code redrive migrate} prints on a fresh namespace, run as an operator runs it (a JVM of its own, so that the
 * output is what the logging prints): its one line, none of the server's notices, and which roles are missing when the
 * migrating user may not create them.
 */
class MigrateOutputTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @Test
    void aFreshNamespacesMigrate_printsItsOneLine_andNoneOfTheServersNotices() throws Exception {
        String fresh = ns.name() + "_fresh";
        try {
            String output = migrate(fresh);

            assertThat(output.strip()).matches("schema " + fresh + ": \\d+ migration\\(s\\) applied, now at version \\d+");
        } finally {
            drop(fresh);
        }
    }

    @Test
    void aMigratingUserWhoMayNotCreateRoles_isToldWhichRolesAreMissing_andTheMigrationGoesOn() throws Exception {
        String fresh = ns.name() + "_norole";
        String login = ns.name() + "_migrator";
        sql("CREATE ROLE \"" + login + "\" LOGIN");
        sql("GRANT CREATE ON DATABASE \"" + database() + "\" TO \"" + login + "\"");
        try {
            String output = migrate(fresh, "--pg-user", login);

            assertThat(output).contains("no role " + fresh + "_viewer for namespace " + fresh + ": grant CREATEROLE "
                    + "to the migrating user and migrate again, or create it by hand");
            assertThat(output).contains("no role " + fresh + "_operator for namespace " + fresh + ":");
            assertThat(output).doesNotContain("already exists, skipping");
            assertThat(output).containsPattern("schema " + fresh + ": \\d+ migration\\(s\\) applied");
        } finally {
            drop(fresh);
            sql("REVOKE CREATE ON DATABASE \"" + database() + "\" FROM \"" + login + "\"");
            sql("DROP OWNED BY \"" + login + "\"");
            sql("DROP ROLE \"" + login + "\"");
        }
    }

    private static String migrate(String namespace, String... options) throws Exception {
        Path log = Files.createTempFile("redrive-migrate", ".log");
        String[] command = new String[8 + options.length];
        command[0] = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        command[1] = "-XX:TieredStopAtLevel=1";
        command[2] = "-cp";
        command[3] = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        command[4] = Main.class.getName();
        command[5] = "migrate";
        command[6] = "-n";
        command[7] = namespace;
        System.arraycopy(options, 0, command, 8, options.length);
        Process cli = TestServers.pointedAtThem(new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile()).directory(new File(System.getProperty("user.dir")))).start();
        assertThat(cli.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String output = Files.readString(log);
        assertThat(cli.exitValue()).as(output).isZero();
        return output;
    }

    private static void drop(String namespace) {
        sql("DROP SCHEMA IF EXISTS \"" + namespace + "_masked\" CASCADE");
        sql("DROP SCHEMA IF EXISTS \"" + namespace + "\" CASCADE");
        sql("DROP ROLE IF EXISTS \"" + namespace + "_viewer\"");
        sql("DROP ROLE IF EXISTS \"" + namespace + "_operator\"");
    }

    private static String database() {
        return ns.database().jdbc().queryOne("SELECT current_database()", row -> row.getString(1)).orElseThrow();
    }

    private static void sql(String statement) {
        ns.database().jdbc().update(statement);
    }
}
