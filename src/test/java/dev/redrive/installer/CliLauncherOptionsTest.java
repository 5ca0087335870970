package dev.redrive.installer;

import dev.redrive.bench.ColdCliBenchmark;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The terminal launcher ({@code redrive-cli}, {@code /usr/bin/redrive}) runs with the options of the main launcher and
 * with the JIT that {@code bench cli} measures: an additional launcher's {@code java-options} replace the main ones,
 * so a setting added to one and forgotten in the other would change what the installed command does or what the
 * benchmark claims of it.
 */
class CliLauncherOptionsTest {
    private static final Path JPACKAGE = Path.of("installer", "jpackage");

    @Test
    void theCliLauncher_hasTheMainLaunchersOptions_andTheJitTheColdBenchmarkRunsWith() throws IOException {
        List<String> expected = new ArrayList<>(mainLauncherOptions());
        expected.addAll(ColdCliBenchmark.LAUNCHER_JAVA_OPTIONS);

        assertThat(cliLauncherOptions()).containsExactlyElementsOf(expected);
        assertThat(mainLauncherOptions()).as("the console keeps C2: it runs for hours")
                .noneMatch(option -> option.startsWith("-XX:TieredStopAtLevel"));
    }

    private static List<String> cliLauncherOptions() throws IOException {
        Properties launcher = new Properties();
        try (Reader reader = Files.newBufferedReader(JPACKAGE.resolve("redrive-cli.properties"))) {
            launcher.load(reader);
        }
        return Arrays.asList(launcher.getProperty("java-options", "").trim().split("\\s+"));
    }

    private static List<String> mainLauncherOptions() throws IOException {
        Matcher options = Pattern.compile("(?m)^--java-options \"([^\"]*)\"$")
                .matcher(Files.readString(JPACKAGE.resolve("app-image.args")));
        assertThat(options.find()).as("--java-options in app-image.args").isTrue();
        return Arrays.asList(options.group(1).trim().split("\\s+"));
    }
}
