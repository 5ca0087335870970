package dev.redrive.cli;

import dev.redrive.testing.PostgresServerProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Passwords off the command line, against a server of the test's own where the login {@code alice} must give hers:
 * a password file, a prompt when the server asks and a terminal can answer, one line saying where a password may come
 * from when none can, and a warning when the password is an option that {@code ps} shows to everyone.
 */
class PasswordOptionsCliTest {
    private static final String PASSWORD = "s3cr3t-Pw";
    private static final String NAMESPACE = "passwords";

    private static PostgresServerProcess server;

    @BeforeAll
    static void start() {
        server = PostgresServerProcess.start();
        server.requirePassword("alice", PASSWORD);
        CliRun migrate = CliRun.of("migrate", "--pg-url", server.jdbcUrl(), "-n", NAMESPACE);
        assertThat(migrate.exit()).as(migrate.err()).isZero();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void aPasswordFile_logsIn_withoutAWord() {
        CliRun list = asAlice(noTerminal(), "--pg-password-file", CliRun.passwordFile(PASSWORD));

        assertThat(list.exit()).as(list.err()).isZero();
        assertThat(list.err()).isEmpty();
    }

    @Test
    void noPasswordAndNoTerminal_isOneLine_sayingWhereAPasswordMayComeFrom() {
        CliRun list = asAlice(noTerminal());

        assertThat(list.exit()).isEqualTo(ExitCode.REFUSED);
        assertThat(list.err().lines()).singleElement().asString()
                .contains("asks for a password and none was given")
                .contains("REDRIVE_PG_PASSWORD_FILE (--pg-password-file)").contains("~/.pgpass")
                .doesNotContain(PASSWORD);
    }

    @Test
    void whenTheServerAsks_theTerminalIsAskedOnce_andTheCommandRuns() {
        List<String> questions = new ArrayList<>();
        CliRun list = asAlice(question -> {
            questions.add(question);
            return Optional.of(PASSWORD);
        });

        assertThat(list.exit()).as(list.err()).isZero();
        assertThat(questions).singleElement().asString().startsWith("PostgreSQL password for alice at jdbc:postgresql://");
    }

    @Test
    void aWrongPasswordTyped_isRefusedOnce_withoutAskingAgain() {
        List<String> questions = new ArrayList<>();
        CliRun list = asAlice(question -> {
            questions.add(question);
            return Optional.of("wrong");
        });

        assertThat(list.exit()).isEqualTo(ExitCode.REFUSED);
        assertThat(list.err().lines()).singleElement().asString().contains("refused the login");
        assertThat(questions).hasSize(1);
    }

    @Test
    void aPasswordGivenAsAnOption_works_andStderrWarnsThatPsShowsIt() {
        CliRun list = asAlice(noTerminal(), "--pg-password", PASSWORD);

        assertThat(list.exit()).as(list.err()).isZero();
        assertThat(list.err().lines()).singleElement().asString()
                .startsWith("warning: --pg-password shows the password to every user of this machine (ps)")
                .doesNotContain(PASSWORD);
    }

    @Test
    void aPasswordGivenTwice_isOneLine_exit2() {
        CliRun list = asAlice(noTerminal(), "--pg-password", PASSWORD, "--pg-password-file", CliRun.passwordFile(PASSWORD));

        assertThat(list.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(list.err().lines().filter(line -> !line.startsWith("warning:"))).singleElement().asString()
                .contains("the PostgreSQL password is given twice").doesNotContain(PASSWORD);
    }

    @Test
    void aMissingOrEmptyPasswordFile_isOneLine_exit2() throws Exception {
        Path empty = Files.createTempFile("redrive-empty-", "");
        CliRun missing = asAlice(noTerminal(), "--pg-password-file", "/nonexistent/password");
        CliRun blank = asAlice(noTerminal(), "--pg-password-file", empty.toString());
        Files.delete(empty);

        assertThat(missing.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(missing.err().lines()).singleElement().asString()
                .contains("/nonexistent/password, which does not exist");
        assertThat(blank.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(blank.err().lines().filter(line -> !line.startsWith("warning:"))).singleElement().asString()
                .contains("whose first line is empty");
    }

    @Test
    void aPasswordFileOthersMayRead_works_withAWarning() throws Exception {
        String file = CliRun.passwordFile(PASSWORD);
        Files.setPosixFilePermissions(Path.of(file), PosixFilePermissions.fromString("rw-r--r--"));

        CliRun list = asAlice(noTerminal(), "--pg-password-file", file);

        assertThat(list.exit()).as(list.err()).isZero();
        assertThat(list.err().lines()).containsExactly("warning: password file " + file
                + " may be read by other users; chmod 600 it");
    }

    private static CliRun asAlice(PasswordPrompt prompt, String... options) {
        List<String> args = new ArrayList<>(List.of("dlq", "list", "--pg-url", server.jdbcUrl(), "--pg-user", "alice",
                "-n", NAMESPACE));
        args.addAll(List.of(options));
        return CliRun.of(prompt, args.toArray(String[]::new));
    }

    private static PasswordPrompt noTerminal() {
        return question -> Optional.empty();
    }
}
