package dev.redrive.cli;

import dev.redrive.config.RedriveConfig;
import dev.redrive.demo.embedded.EmbeddedServers;
import dev.redrive.demo.embedded.SandboxDirectory;
import dev.redrive.demo.sandbox.Sandbox;
import dev.redrive.demo.sandbox.SandboxException;
import dev.redrive.demo.sandbox.SeedSize;
import dev.redrive.demo.sandbox.Trickle;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;

@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Start the sandbox: wipe namespace " + Sandbox.NAMESPACE + " (or the one -n names), seed a "
                + "realistic incident through the demo tools and an in-process worker, then keep them running with a "
                + "light trickle of new work and print how to connect. Stop with Ctrl-C; running it again re-seeds."})
final class DemoCommand extends NamespaceCommand {
    @Option(names = "--size", paramLabel = "full|small", defaultValue = "full",
            description = "full: a few hundred operations (default); small: one of each kind, seeded in seconds")
    String size;

    @Mixin
    TrickleOption trickle;

    @Option(names = "--seed-only", description = "seed, print the summary and exit instead of keeping the sandbox running")
    boolean seedOnly;

    @Option(names = "--wipe", description = "delete the data of the sandbox's own servers (those started when no "
            + "server is configured) and exit; stop the sandbox first")
    boolean wipe;

    @Override
    public Integer call() throws InterruptedException {
        SeedSize seedSize = switch (size.strip().toLowerCase(Locale.ROOT)) {
            case "full" -> SeedSize.FULL;
            case "small" -> SeedSize.SMALL;
            default -> throw new IllegalArgumentException("--size must be full or small, got '" + size + "'");
        };
        Trickle newWork = trickle.trickle();
        PrintWriter out = spec.commandLine().getOut();
        if (wipe) {
            return wipe(out);
        }
        SandboxServers servers = SandboxServers.choose(connection, out);
        RedriveConfig config = servers.config();
        Sandbox sandbox = Sandbox.connect(config, Clock.systemUTC(), line -> {
            out.println(line);
            out.flush();
        });
        boolean keepRunning = false;
        try {
            out.println(sandbox.reseed(seedSize).describe());
            if (!seedOnly) {
                sandbox.startLiveWorkload(newWork);
                keepRunning = true;
            }
        } catch (SandboxException e) {
            spec.commandLine().getErr().println("demo: " + e.getMessage());
            return 1;
        } finally {
            if (!keepRunning) {
                sandbox.close();
                servers.close();
            }
        }
        if (!keepRunning) {
            return 0;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        // The servers' own hook runs beside this one: either way the sandbox stops first, then the servers.
        servers.stopFirst(sandbox);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            sandbox.close();
            servers.close();
            stopped.countDown();
        }, "sandbox-shutdown"));
        out.println(connectHelp(config, sandbox, servers.embedded(), newWork));
        out.print(servers.exports());
        out.flush();
        stopped.await();
        return 0;
    }

    private static int wipe(PrintWriter out) {
        Path dir = SandboxDirectory.forCurrentUser();
        out.println(EmbeddedServers.wipe(dir) ? "deleted the sandbox's data in " + dir
                : "no sandbox data in " + dir + ": nothing to delete");
        return 0;
    }

    /**
     * How to reach the running sandbox from another terminal. On the sandbox's own servers, a command there must first
     * be pointed at them: a plain {@code dlq groups} would look at the configured or default servers instead.
     */
    private static String connectHelp(RedriveConfig config, Sandbox sandbox, boolean ownServers, Trickle newWork) {
        String namespace = config.namespace().equals(Sandbox.NAMESPACE) ? "" : " -n " + config.namespace();
        String lookups = sandbox.lookupEndpointUrls().entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(entry -> entry.getKey() + "=" + entry.getValue())
                .collect(Collectors.joining(","));
        String work = newWork.off() ? "no new work comes in (--trickle 0)"
                : "new work trickles in every few seconds";
        String pointAt = ownServers ? "  in another terminal, first point the commands at the sandbox's servers:\n"
                + "                           eval \"$(cat " + SandboxServers.envFile() + ")\"\n" : "";
        return """

                Sandbox ready in namespace %1$s. The demo tools and a worker run in this process, and %4$s.
                %5$s  open the console on it:  java -jar target/redrive.jar console --demo%2$s
                  or look at it:           java -jar target/redrive.jar dlq groups -n %1$s
                  the demo tools' reconciliation look-ups while this runs (for a console opened without --demo, \
                or reconcile --lookup):
                    REDRIVE_LOOKUP_ENDPOINTS=%3$s
                Stop with Ctrl-C (running demo again wipes and re-seeds the namespace).""".formatted(
                config.namespace(), namespace, lookups, work, pointAt);
    }
}
