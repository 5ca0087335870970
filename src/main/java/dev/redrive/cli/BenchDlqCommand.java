package dev.redrive.cli;

import dev.redrive.bench.DlqBenchmark;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

@Command(name = "dlq", mixinStandardHelpOptions = true,
        description = "Every operator query on the DLQ at scale (pages, class and text filters, counts, groups, queue"
                + " health): p50 and p95, next to the older or plainer way to answer it measured in the same run."
                + " Fills and keeps a namespace (default bench_dlq) with generated entries.")
final class BenchDlqCommand extends NamespaceCommand {
    @Option(names = "--entries", defaultValue = "1000000", description = "DLQ entries to query over (default ${DEFAULT-VALUE})")
    int entries;

    @Option(names = "--runs", defaultValue = "20", description = "times each query runs after a warm-up (default ${DEFAULT-VALUE})")
    int runs;

    @Override
    public Integer call() {
        if (entries < 1 || runs < 2) {
            throw new ParameterException(spec.commandLine(), "--entries takes a number of at least 1 and --runs of at least 2");
        }
        new DlqBenchmark(connection.benchConfig("bench_dlq"), entries, runs, spec.commandLine().getOut()).run();
        return 0;
    }
}
