package dev.redrive.cli;

import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

class MigrateCommandTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @Test
    void migrateIntoPublic_isRefusedWithOneLine_andPublicIsLeftAlone() {
        long publicTables = tablesInPublic();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = RedriveCommand.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));

        int exit = commandLine.execute("migrate", "-n", "public");

        assertThat(exit).isEqualTo(ExitCode.USAGE);
        assertThat(err.toString()).isEqualTo("migrate: --namespace must not be public: pg_*, information_schema and "
                + "public are PostgreSQL's system and shared schemas, not Redrive's to fill or drop; expected a name of its "
                + "own, e.g. redrive (see redrive migrate --help)" + System.lineSeparator());
        assertThat(out.toString()).isEmpty();
        assertThat(tablesInPublic()).isEqualTo(publicTables);
    }

    private static long tablesInPublic() {
        return ns.database().jdbc().queryLong("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'");
    }
}
