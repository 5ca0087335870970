package dev.redrive.cli;

import dev.redrive.bench.WorkerBenchmark;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Benchmarks that print ratios against a baseline measured in the same run.",
        subcommands = {BenchCommand.WorkerBench.class, BenchDlqCommand.class, BenchBatchCommand.class,
                BenchCliCommand.class})
final class BenchCommand {

    @Command(name = "worker", mixinStandardHelpOptions = true,
            description = "Worker throughput as a ratio of this PostgreSQL's commit ceiling, and commits per operation."
                    + " Runs in a throw-away namespace (default bench_worker).")
    static final class WorkerBench extends NamespaceCommand {
        @Option(names = "--operations", defaultValue = "20000", description = "operations to process (default ${DEFAULT-VALUE})")
        int operations;

        @Option(names = "--concurrency", defaultValue = "8", description = "worker concurrency and baseline connections (default ${DEFAULT-VALUE})")
        int concurrency;

        @Option(names = "--drains", defaultValue = "1", description = "drains to run one after the other, each in a fresh"
                + " namespace; with more than one the first warms up, and so does each next one while the JIT compiler"
                + " is still busy (at most 3), and the slowest of the others is compared with the median, each against"
                + " the commit ceiling measured around it (default ${DEFAULT-VALUE})")
        int drains;

        @Override
        public Integer call() throws Exception {
            if (operations < 1 || concurrency < 1 || drains < 1) {
                throw new ParameterException(spec.commandLine(), "--operations, --concurrency and --drains take a "
                        + "number of at least 1");
            }
            new WorkerBenchmark(connection.benchConfig("bench_worker"), operations, concurrency, drains,
                    spec.commandLine().getOut()).run();
            return 0;
        }
    }
}
