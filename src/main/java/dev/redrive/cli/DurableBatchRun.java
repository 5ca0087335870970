package dev.redrive.cli;

import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.decision.durable.BatchHeldException;
import dev.redrive.triage.decision.durable.BatchOutcomes;
import dev.redrive.triage.decision.durable.BatchState;
import dev.redrive.triage.decision.durable.DurableBatch;
import dev.redrive.triage.decision.durable.DurableBatchListener;
import dev.redrive.triage.decision.durable.DurableBatches;
import dev.redrive.triage.decision.durable.DurableBatches.BatchRun;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.function.Supplier;

/**
 * Works a durable batch off in this process and prints it, for {@code redrive --group}, {@code redrive --resume} and
 * {@code redrive batch resume} alike: a progress line while it runs (or each item as it is decided, with
 * {@code --verbose} or {@code --out}), then the summary or the report (JSON), the line that ends the run, and the
 * items' outcomes as the facts say then. Ctrl-C stops it after the chunk in hand and releases it as STOPPED before the
 * process exits; so does {@code redrive batch stop} from anywhere.
 */
final class DurableBatchRun {
    private final CommandSpec spec;
    private final boolean json;
    private final BatchOutputOptions output;

    DurableBatchRun(CommandSpec spec, boolean json, BatchOutputOptions output) {
        this.spec = spec;
        this.json = json;
        this.output = output;
    }

    /**
     * Records a batch with {@code start} and runs it. The item file is opened first: one that cannot be written is
     * refused before a batch is recorded, rather than leave one that nobody runs.
     */
    int start(TriageSession session, Supplier<DurableBatch> start) {
        // Without --out there is no file: try-with-resources closes a null resource by skipping it.
        try (ItemFile items = output.openItemFile()) {
            DurableBatch batch = start.get();
            note().println(BatchPrinter.started(batch));
            note().flush();
            return run(session, batch.id(), false, items == null ? null : items.begin());
        }
    }

    /** Runs batch {@code id} again, saying where it stands once this process holds it. */
    int resume(TriageSession session, long id) {
        try (ItemFile items = output.openItemFile()) {
            return run(session, id, true, items == null ? null : items.begin());
        }
    }

    private int run(TriageSession session, long id, boolean resumed, PrintWriter items) {
        try (StopOnShutdown shutdown = StopOnShutdown.install(id, spec.commandLine().getErr(), DurableBatches.LEASE)) {
            return run(session, id, resumed, shutdown, items);
        }
    }

    private int run(TriageSession session, long id, boolean resumed, StopOnShutdown shutdown, PrintWriter items) {
        PrintWriter out = spec.commandLine().getOut();
        boolean verbose = output.verbose && !json;
        ProgressLine progress = verbose ? null : ProgressLine.onStderr(spec.commandLine().getErr());
        BatchRun run;
        try {
            run = session.batches().run(id, shutdown.stopping(new DurableBatchListener() {
                @Override
                public void itemDone(int done, int total, DecisionResult item) {
                    if (verbose) {
                        DecisionPrinter.print(out, item, false);
                    }
                    if (items != null) {
                        DecisionPrinter.print(items, item, false);
                    }
                    if (progress != null) {
                        progress.update(done, total);
                    }
                }

                @Override
                public void claimed(DurableBatch batch) {
                    if (progress != null) {
                        progress.startFrom(batch.done());
                    }
                    if (resumed) {
                        note().println(BatchPrinter.resuming(batch));
                        note().flush();
                    }
                }
            }));
        } catch (BatchHeldException e) {
            if (progress != null) {
                progress.clear();
            }
            spec.commandLine().getErr().println(e.getMessage());
            spec.commandLine().getErr().flush();
            return ExitCode.BLOCKED;
        }
        if (progress != null) {
            progress.clear();
        }
        if (json) {
            DecisionPrinter.json(out, run.report().<Object>map(report -> report).orElse(run.batch()));
        } else {
            run.report().ifPresent(report -> out.println(report.summary()));
        }
        if (!run.leftOut().isEmpty()) {
            note().println(RedriveOperationsCommand.leftOutLine(run.leftOut()));
        }
        note().println(BatchPrinter.ended(run));
        new BatchOutcomes(session.database()).tally(id)
                .ifPresent(tally -> note().println(BatchPrinter.outcomesNow(id, tally)));
        note().flush();
        out.flush();
        DurableBatch batch = run.batch();
        if (batch.failed() > 0) {
            return ExitCode.REFUSED;
        }
        if (batch.state() != BatchState.DONE) {
            // Stopped (batch stop, the console's Stop) or let go: what a script must know first is to resume it.
            return ExitCode.STOPPED;
        }
        int exit = run.report().map(report -> DecisionPrinter.exitCode(report.items()))
                .orElse(batch.blocked() > 0 ? ExitCode.BLOCKED : ExitCode.OK);
        // Items someone else took first are as a single decision's ALREADY_DECIDED: not done by this command.
        return exit == ExitCode.OK && batch.decidedElsewhere() > 0 ? ExitCode.BLOCKED : exit;
    }

    /** Where lines beside the result go: stdout, or stderr beside JSON so that the output stays one document. */
    PrintWriter note() {
        return json ? spec.commandLine().getErr() : spec.commandLine().getOut();
    }
}
