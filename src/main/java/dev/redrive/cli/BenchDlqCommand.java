package dev.redrive.cli;

import dev.redrive.bench.DlqBenchmark;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

@Command(name = "dlq", mixinStandardHelpOptions = true,
        description = "DLQ queries at scale as ratios against baselines measured in the same run (keyset vs OFFSET paging,"
                + " estimated vs exact count). Fills and keeps a namespace (default bench_dlq) with generated entries.")
final class BenchDlqCommand implements Callable<Integer> {
    @Mixin
    ConnectionOptions connection;

    @Option(names = "--entries", defaultValue = "1000000", description = "DLQ entries to query over (default ${DEFAULT-VALUE})")
    int entries;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        String given = connection.config().namespace();
        String namespace = given.equals("redrive") ? "bench_dlq" : given;
        new DlqBenchmark(connection.config().withNamespace(namespace), entries, spec.commandLine().getOut()).run();
        return 0;
    }
}
