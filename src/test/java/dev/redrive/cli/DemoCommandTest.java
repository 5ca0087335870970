package dev.redrive.cli;

import dev.redrive.demo.sandbox.Sandbox;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

class DemoCommandTest {

    @Test
    void sandboxNamespace_isRedriveDemo_unlessDashNNamesAnother() {
        assertThat(namespaceOf()).isEqualTo(Sandbox.NAMESPACE);
        assertThat(namespaceOf("-n", "my_sandbox")).isEqualTo("my_sandbox");
        assertThat(namespaceOf("--namespace", "other_sandbox")).isEqualTo("other_sandbox");
    }

    @Test
    void sandboxNamespace_namedBeforeTheCommand_isTakenToo() {
        CommandLine commandLine = RedriveCommand.commandLine();
        commandLine.parseArgs("-n", "early_sandbox", "demo", "--size", "SMALL");
        DemoCommand command = commandLine.getSubcommands().get("demo").getCommand();

        assertThat(DemoNamespace.config(command.connection).namespace()).isEqualTo("early_sandbox");
    }

    @Test
    void unknownSize_isRefusedWithOneLineNamingTheOption() {
        StringWriter err = new StringWriter();
        CommandLine commandLine = RedriveCommand.commandLine();
        commandLine.setErr(new PrintWriter(err));

        int exit = commandLine.execute("demo", "--size", "huge");

        assertThat(exit).isEqualTo(ExitCode.USAGE);
        assertThat(err.toString().strip()).isEqualTo("demo: --size must be full or small, got 'huge' (see redrive demo --help)");
    }

    @Test
    void aTrickleOutOfRange_orWithoutTheSandbox_isRefusedWithOneLine() {
        StringWriter err = new StringWriter();
        CommandLine commandLine = RedriveCommand.commandLine();
        commandLine.setErr(new PrintWriter(err));

        assertThat(commandLine.execute("demo", "--trickle", "-5")).isEqualTo(ExitCode.USAGE);
        assertThat(commandLine.execute("console", "--trickle", "10")).isEqualTo(ExitCode.USAGE);

        assertThat(err.toString().strip().lines()).containsExactly(
                "demo: --trickle must be a number of operations per minute from 0 (none) to 600, got -5 "
                        + "(see redrive demo --help)",
                "console: --trickle goes with --demo: it sets the sandbox's new work (see redrive console --help)");
    }

    private static String namespaceOf(String... args) {
        DemoCommand command = new DemoCommand();
        new CommandLine(command).parseArgs(args);
        return DemoNamespace.config(command.connection).namespace();
    }
}
