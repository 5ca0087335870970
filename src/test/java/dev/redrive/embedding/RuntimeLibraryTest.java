package dev.redrive.embedding;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The runtime jar ({@code dev.redrive:redrive:VERSION:jar:runtime}) holds the runtime alone and is closed: jdeps finds
 * every class its classes use in the jar itself, the JDK or the library's own (non-optional) dependencies. A class of
 * the runtime that came to use the console, the CLI or a triage class would show up here as missing.
 */
class RuntimeLibraryTest {
    private static Path jar;

    @BeforeAll
    static void assemble() throws Exception {
        jar = RuntimeLibrary.classes();
    }

    @Test
    void theRuntimeJar_holdsTheWorkerAndItsStores_andNothingOfTheApplication() throws Exception {
        List<String> entries;
        try (Stream<Path> files = Files.walk(jar)) {
            entries = files.filter(Files::isRegularFile).map(file -> jar.relativize(file).toString()
                    .replace(File.separatorChar, '/')).toList();
        }

        assertThat(entries).contains("dev/redrive/worker/Worker.class", "dev/redrive/store/Database.class",
                "dev/redrive/broker/Redis.class", "dev/redrive/worker/client/WorkerClient.class",
                "dev/redrive/db/migration/V255__last_call.sql", "redrive-version.properties");
        assertThat(entries).noneMatch(entry -> entry.matches(
                "dev/redrive/(console|cli|demo|bench|triage|report|services|health|timeline)/.*"));
        assertThat(entries).noneMatch(entry -> entry.startsWith("fonts/") || entry.startsWith("console/")
                || entry.equals("simplelogger.properties") || entry.startsWith("dev/redrive/db/demo/"));
    }

    @Test
    void everyClassTheRuntimeUses_isInTheJarTheJdkOrItsDependencies() {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
        StringWriter out = new StringWriter();
        int exit = jdeps.run(new PrintWriter(out), new PrintWriter(out), "--multi-release", "17", "--missing-deps",
                "-cp", RuntimeLibrary.dependencies(), jar.toString());

        assertThat(exit).as(out.toString()).isZero();
        assertThat(out.toString()).as("classes the runtime uses and does not hold").doesNotContain("dev.redrive");
    }
}
