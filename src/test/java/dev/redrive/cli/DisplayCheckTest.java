package dev.redrive.cli;

import dev.redrive.config.ConfigurationException;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The console without a display: one line saying so, exit 2, instead of JavaFX's stack trace. */
class DisplayCheckTest {
    @Test
    void onLinux_aDisplayOrAWaylandDisplayIsNeeded_macOsAndWindowsHaveTheirDesktop() {
        assertThatThrownBy(() -> DisplayCheck.requireDisplay("Linux", Map.of()))
                .isInstanceOf(ConfigurationException.class).hasMessageStartingWith("the console needs a display");
        assertThatThrownBy(() -> DisplayCheck.requireDisplay("Linux", Map.of("DISPLAY", " ")))
                .isInstanceOf(ConfigurationException.class);
        assertThatCode(() -> DisplayCheck.requireDisplay("Linux", Map.of("DISPLAY", ":0"))).doesNotThrowAnyException();
        assertThatCode(() -> DisplayCheck.requireDisplay("Linux", Map.of("WAYLAND_DISPLAY", "wayland-0")))
                .doesNotThrowAnyException();
        assertThatCode(() -> DisplayCheck.requireDisplay("Mac OS X", Map.of())).doesNotThrowAnyException();
        assertThatCode(() -> DisplayCheck.requireDisplay("Windows 11", Map.of())).doesNotThrowAnyException();
    }

    @Test
    void theConsoleCommandWithoutADisplay_isOneLine_exit2() throws Exception {
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                Main.class.getName(), "console").redirectErrorStream(true)
                .directory(new File(System.getProperty("user.dir")));
        builder.environment().remove("DISPLAY");
        builder.environment().remove("WAYLAND_DISPLAY");
        Process console = builder.start();
        String output = new String(console.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(console.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(console.exitValue()).isEqualTo(ExitCode.USAGE);
        assertThat(output).isEqualTo("console: the console needs a display and neither DISPLAY nor WAYLAND_DISPLAY is "
                + "set: run it in a desktop session (or with ssh -X); every other command works without one (see "
                + "redrive console --help)\n");
    }
}
