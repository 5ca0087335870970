package dev.redrive.cli;

import dev.redrive.console.ConsoleLauncher;
import dev.redrive.demo.sandbox.Sandbox;
import dev.redrive.demo.sandbox.Trickle;
import dev.redrive.demo.tools.DemoToolServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.time.Clock;
import java.util.Map;

@Command(name = "console", mixinStandardHelpOptions = true, description = "Open the triage console (the default command).")
final class ConsoleCommand implements Runnable {
    @Mixin
    ConnectionOptions connection;

    @Option(names = "--demo", description = "open the console on the sandbox (namespace " + Sandbox.NAMESPACE
            + " unless -n names another), seeding it first if it is empty; the demo tools and a worker run in-process")
    boolean demo;

    @Mixin
    TrickleOption trickle;

    @Option(names = "--profile", paramLabel = "NAME", description = "open a saved connection profile instead of the REDRIVE_* settings")
    String profile;

    @Override
    public void run() {
        if (trickle.given() && !demo) {
            throw new IllegalArgumentException("--trickle goes with --demo: it sets the sandbox's new work");
        }
        DisplayCheck.requireDisplay(System.getProperty("os.name", ""), System.getenv());
        if (demo) {
            Trickle newWork = trickle.trickle();
            PrintWriter out = new PrintWriter(System.out, true);
            try (SandboxServers servers = SandboxServers.choose(connection, out);
                 Sandbox sandbox = Sandbox.openForConsole(servers.config(), Clock.systemUTC(), System.out::println,
                         newWork)) {
                servers.stopFirst(sandbox);
                ConsoleLauncher.launch(new ConsoleLauncher.LaunchSettings(sandbox.config(), true, servers.embedded(),
                        null, sandbox.lookupEndpointUrls(), DemoToolServer::lookupEndpoints));
            }
            return;
        }
        ConsoleLauncher.launch(connection.config(), demo, profile, Map.of(), DemoToolServer::lookupEndpoints);
    }
}
