package dev.redrive.console.profile;

import dev.redrive.testing.OsCommands;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The OS keychain path on Linux: a child JVM in a D-Bus session of its own with a GNOME Keyring daemon (Secret
 * Service) unlocked for it, so the test needs no desktop; skipped where dbus-run-session or gnome-keyring-daemon is
 * not installed ({@code apt-get install gnome-keyring dbus-x11}).
 */
class KeychainVaultTest {
    @TempDir
    Path directory;

    @TempDir
    Path home;

    @Test
    void anEarlierVersionsFileMovesIntoTheKeychain_andNoMasterPasswordIsAsked() throws Exception {
        OsCommands.assumeInstalled("the OS keychain (a Secret Service of the test's own)", "dbus-run-session",
                "gnome-keyring-daemon");
        PasswordKeyStore.write(directory.resolve("secrets.p12"), "redrive-console".toCharArray(),
                Map.of("staging", "s3cret-pw"));

        List<String> lines = runInKeyringSession();

        assertThat(lines).contains("vault: the OS keychain (GNOME_KEYRING)", "moved: 1", "staging: s3cret-pw",
                "prod: pr0d-pw", "after forgetting: none, none");
        assertThat(directory.resolve("secrets.p12")).doesNotExist();
        assertThat(directory.resolve("passwords.p12")).doesNotExist();
    }

    /** The daemon keeps its keyring under HOME, so the child gets an empty one of the test's own. */
    private List<String> runInKeyringSession() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        ProcessBuilder builder = new ProcessBuilder("dbus-run-session", "--", "sh", "-c",
                "echo unlock | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; exec \"$@\"", "sh",
                java, "-cp", classpath, KeychainVaultCheck.class.getName(), directory.toString());
        builder.environment().put("HOME", home.toString());
        builder.environment().remove("DBUS_SESSION_BUS_ADDRESS");
        Path log = home.resolve("check.log");
        Process process = builder.redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new AssertionError("the keychain check did not finish in 120 s: " + Files.readString(log));
        }
        List<String> lines = Files.readAllLines(log);
        assertThat(process.exitValue()).as(String.join("\n", lines)).isZero();
        return lines;
    }

}
