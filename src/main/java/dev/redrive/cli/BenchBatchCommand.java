package dev.redrive.cli;

import dev.redrive.bench.BatchBenchmark;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "batch", mixinStandardHelpOptions = true,
        description = "A batch redrive of a fingerprint group (every check, then recorded and published) and its dry run,"
                + " in items per second and as a ratio of one client's single-row commits measured right before."
                + " Runs in a throw-away namespace (default bench_batch).")
final class BenchBatchCommand extends NamespaceCommand {
    @Option(names = "--entries", defaultValue = "10000", description = "entries in the group (default ${DEFAULT-VALUE})")
    int entries;

    @Option(names = "--rounds", defaultValue = "3", description = "rounds, each seeded afresh: the first is the cold one (a fresh JVM), the medians of the others are the warm figures (default ${DEFAULT-VALUE})")
    int rounds;

    @Override
    public Integer call() throws Exception {
        new BatchBenchmark(connection.benchConfig("bench_batch"), entries, rounds, spec.commandLine().getOut()).run();
        return 0;
    }
}
