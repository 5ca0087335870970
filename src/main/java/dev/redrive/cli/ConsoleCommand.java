package dev.redrive.cli;

import dev.redrive.console.ConsoleLauncher;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "console", mixinStandardHelpOptions = true, description = "Open the triage console (the default command).")
final class ConsoleCommand implements Runnable {
    @Mixin
    ConnectionOptions connection;

    @Option(names = "--demo", description = "open the console on the sandbox (start it with the demo command first)")
    boolean demo;

    @Option(names = "--profile", paramLabel = "NAME", description = "open a saved connection profile instead of the REDRIVE_* settings")
    String profile;

    @Override
    public void run() {
        ConsoleLauncher.launch(connection.config(), demo, profile);
    }
}
