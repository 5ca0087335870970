package dev.redrive.cli;

import dev.redrive.bench.ColdCliBenchmark;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "cli", mixinStandardHelpOptions = true,
        description = "The command line as an operator runs it, cold: redrive --group of dead letters a worker produced,"
                + " and dispatch --file, each in a new JVM, its start taken off, in items per second and as a ratio of"
                + " one client's single-row commits measured right before. Runs in a throw-away namespace (default"
                + " bench_cli).")
final class BenchCliCommand extends NamespaceCommand {
    @Option(names = "--dead-letters", defaultValue = "10000",
            description = "dead letters the worker produces for redrive --group (default ${DEFAULT-VALUE})")
    int deadLetters;

    @Option(names = "--dispatches", defaultValue = "20000",
            description = "operations in the file dispatch --file reads (default ${DEFAULT-VALUE})")
    int dispatches;

    @Override
    public Integer call() throws Exception {
        new ColdCliBenchmark(connection.benchConfig("bench_cli"), deadLetters, dispatches,
                spec.commandLine().getOut()).run();
        return 0;
    }
}
