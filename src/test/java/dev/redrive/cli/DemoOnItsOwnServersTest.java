package dev.redrive.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code redrive demo} on a machine where nothing is configured: it starts the sandbox's own PostgreSQL and Redis
 * (data in REDRIVE_SANDBOX_DIR here), prints their settings as shell lines with which other commands reach the
 * sandbox, stops them on a TERM (as on Ctrl-C) leaving no process behind, and {@code demo --wipe} deletes the data.
 */
class DemoOnItsOwnServersTest {
    private static final Pattern EXPORT = Pattern.compile("^export (REDRIVE_\\w+)=(\\S+)$");

    @TempDir
    Path sandboxDir;

    @Test
    void withNoSettings_theDemoRunsOnServersOfItsOwn_printsTheirSettings_andLeavesNothingRunning() throws Exception {
        // Run as root, PostgreSQL runs as another user, who must be able to enter the folder.
        Files.setPosixFilePermissions(sandboxDir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Process demo = demo("demo", "--size", "small").start();
        Map<String, String> exports = new LinkedHashMap<>();
        StringBuilder output = new StringBuilder();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(demo.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null && exports.size() < 3; line = lines.readLine()) {
                output.append(line).append('\n');
                Matcher export = EXPORT.matcher(line);
                if (export.matches()) {
                    exports.put(export.group(1), export.group(2));
                }
            }
            assertThat(exports).as(output.toString()).containsKeys("REDRIVE_PG_URL", "REDRIVE_REDIS_URI", "REDRIVE_NAMESPACE");
            assertThat(output).contains("No PostgreSQL or Redis is configured: starting the sandbox's own, data in "
                    + sandboxDir);
            assertThat(output).as("another terminal is told to point its commands at these servers first")
                    .contains("eval \"$(cat " + sandboxDir.resolve("sandbox.env") + ")\"");
            assertThat(exports.get("REDRIVE_PG_URL")).doesNotContain(":5432/");
            assertThat(Files.readString(sandboxDir.resolve("sandbox.env"))).contains("export REDRIVE_PG_URL="
                    + exports.get("REDRIVE_PG_URL"));

            CliRun groups = CliRun.of("dlq", "groups", "--pg-url", exports.get("REDRIVE_PG_URL"), "--redis-uri",
                    exports.get("REDRIVE_REDIS_URI"), "-n", exports.get("REDRIVE_NAMESPACE"));
            assertThat(groups.exit()).as(groups.err()).isZero();
            assertThat(groups.out()).contains("demo.charge");

            // TERM, as Ctrl-C: the sandbox's worker and tools stop first, then its servers, without a worker spending
            // its last seconds on timeouts against servers already gone.
            int ready = output.length();
            // (Process.destroy would close the pipe this test still reads.)
            assertThat(new ProcessBuilder("kill", "-TERM", Long.toString(demo.pid())).start().waitFor()).isZero();
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                output.append(line).append('\n');
            }
            assertThat(demo.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(output.substring(ready)).as("what the demo said while it stopped")
                    .doesNotContain("Exception", "did not stop cleanly", "Cannot reconnect");
        } finally {
            demo.destroy();
            assertThat(demo.waitFor(90, TimeUnit.SECONDS)).isTrue();
        }

        assertThat(serversOn(sandboxDir)).as("servers left running").isEmpty();
        CliRun wipe = run("demo", "--wipe");
        assertThat(wipe.out()).isEqualTo("deleted the sandbox's data in " + sandboxDir + "\n");
        assertThat(sandboxDir).doesNotExist();
    }

    private ProcessBuilder demo(String... args) {
        List<String> command = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                Main.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .directory(new File(System.getProperty("user.dir")));
        builder.environment().keySet().removeIf(name -> name.startsWith("REDRIVE_"));
        builder.environment().put("REDRIVE_SANDBOX_DIR", sandboxDir.toString());
        return builder;
    }

    private CliRun run(String... args) throws Exception {
        Process process = demo(args).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new CliRun(process.exitValue(), out, "");
    }

    /** Processes whose command line names {@code dir}: the sandbox's PostgreSQL names its data folder there. */
    private static List<String> serversOn(Path dir) {
        return ProcessHandle.allProcesses()
                .map(process -> process.info().commandLine().orElse(""))
                .filter(line -> line.contains(dir.toString()))
                .toList();
    }
}
