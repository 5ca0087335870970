package dev.redrive.cli;

import dev.redrive.triage.decision.durable.BatchOutcomes;
import dev.redrive.triage.decision.durable.BatchState;
import dev.redrive.triage.decision.durable.DurableBatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;

@Command(name = "batch", mixinStandardHelpOptions = true,
        description = "Durable batches (redrive --group, redrive with filters): list them, show each item's outcome, "
                + "stop one wherever it runs, resume one.",
        subcommands = {BatchCommand.ListBatches.class, BatchCommand.Show.class, BatchCommand.Stop.class,
                BatchCommand.Resume.class})
final class BatchCommand {

    /** A batch id as typed: a positive number. */
    static final class BatchId {
        @Parameters(paramLabel = "BATCH", description = "the batch id (redrive batch list shows them)")
        long id;
    }

    /** A subcommand about one batch, named by its id, that answers in text or in JSON. */
    abstract static class OneBatch extends NamespaceCommand {
        @Mixin
        BatchId batch;

        @Mixin
        JsonOption json;

        /** Each one answers over a session of its own and flushes what it printed before the exit code is returned. */
        @Override
        public final Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            try (TriageSession session = new TriageSession(connection)) {
                int exitCode = answer(session, out);
                out.flush();
                return exitCode;
            }
        }

        abstract int answer(TriageSession session, PrintWriter out);
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "The newest 50 durable batches, as redrive batch list and redrive --batches list them.")
    static final class ListBatches extends NamespaceCommand {
        @Mixin
        JsonOption json;

        @Override
        public Integer call() {
            try (TriageSession session = new TriageSession(connection)) {
                return BatchPrinter.listNewest(session, spec.commandLine().getOut(), json.on());
            }
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true,
            description = "One batch and what became of each item, read from the facts now: blocked (by which "
                    + "precondition), redriven then succeeded, redriven then failed again (with the new DLQ entry), "
                    + "still running, skipped because someone else decided it, resolved, discarded.")
    static final class Show extends OneBatch {
        @Override
        int answer(TriageSession session, PrintWriter out) {
            BatchOutcomes.Report report = new BatchOutcomes(session.database())
                    .of(batch.id, BatchPrinter.ITEMS_SHOWN).orElseThrow(() -> unknown(batch.id));
            if (json.on()) {
                Map<String, Object> root = new LinkedHashMap<>();
                root.put("batch", report.batch());
                root.put("summary", report.summary());
                root.put("outcomes", report.counts());
                root.put("items", report.items());
                DecisionPrinter.json(out, root);
            } else {
                BatchPrinter.show(out, report);
            }
            return ExitCode.OK;
        }
    }

    @Command(name = "stop", mixinStandardHelpOptions = true,
            description = "Stop a running batch wherever it runs (another terminal, another host): its process sees "
                    + "it within a second, finishes the chunk in hand and exits saying so; audited as BATCH_STOPPED. "
                    + "Exit 3 when the batch is not running.")
    static final class Stop extends OneBatch {
        @Override
        int answer(TriageSession session, PrintWriter out) {
            DurableBatch before = session.batches().find(batch.id).orElseThrow(() -> unknown(batch.id));
            if (before.state() != BatchState.RUNNING) {
                spec.commandLine().getErr().println("batch " + batch.id + " is " + before.state()
                        + ": nothing to stop");
                spec.commandLine().getErr().flush();
                return ExitCode.BLOCKED;
            }
            DurableBatch stopped = session.batches().stop(batch.id);
            if (json.on()) {
                DecisionPrinter.json(out, stopped);
            } else {
                out.println("batch " + stopped.id() + " " + stopped.state() + " at " + BatchPrinter.progress(stopped)
                        + (before.owner() == null ? "" : "; " + before.owner() + " stops after the chunk in hand")
                        + "; go on with: redrive batch resume " + stopped.id());
            }
            return ExitCode.OK;
        }
    }

    @Command(name = "resume", mixinStandardHelpOptions = true,
            description = "Go on with a durable batch where it stopped, in this process, as redrive --resume does.")
    static final class Resume extends OneBatch {
        @Mixin
        BatchOutputOptions output;

        @Override
        int answer(TriageSession session, PrintWriter out) {
            return new DurableBatchRun(spec, json.on(), output).resume(session, batch.id);
        }
    }

    private static IllegalArgumentException unknown(long id) {
        return new IllegalArgumentException("no batch " + id + "; redrive batch list shows them");
    }
}
