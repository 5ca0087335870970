package dev.redrive.cli;

import dev.redrive.triage.decision.durable.BatchOutcomes;
import dev.redrive.triage.decision.durable.BatchState;
import dev.redrive.triage.decision.durable.DurableBatch;
import dev.redrive.triage.decision.durable.DurableBatches.BatchRun;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * Prints durable batches: the list of {@code redrive --batches} and {@code redrive batch list}, one batch with its items'
 * outcomes ({@code redrive batch show}), and the lines that end a batch's run.
 */
final class BatchPrinter {
    private static final String ROW = "%6s  %-9s  %-8s  %-24s  %9s  %9s  %7s  %-12s  %-20s  %s%n";
    private static final String ITEM_ROW = "%6s  %-40s  %8s  %-17s  %s%n";
    /** How many batches a list shows. */
    static final int BATCHES_LISTED = 50;
    /** How many items {@code batch show} and the end of a run read outcomes for. */
    static final int ITEMS_SHOWN = 100_000;

    private BatchPrinter() {
    }

    /**
     * The list; a RUNNING batch whose process died (its lease ran out at {@code now}) shows as ABANDONED, which
     * {@code --resume} takes at once (its JSON keeps the state RUNNING, with {@code owner} and {@code lease_until}).
     */
    static void list(PrintWriter out, List<DurableBatch> batches, Instant now) {
        out.printf(ROW, "BATCH", "STATE", "KIND", "PROGRESS", "DECIDED", "BLOCKED", "FAILED", "OPERATOR", "CREATED",
                "SELECTION");
        for (DurableBatch batch : batches) {
            String state = batch.state() == BatchState.RUNNING && !batch.heldAt(now) && batch.owner() != null
                    ? "ABANDONED" : batch.state().name();
            out.printf(ROW, batch.id(), state, batch.kind(), progress(batch), batch.succeeded(), batch.blocked(),
                    batch.failed(), Cells.cut(batch.operator(), 12), batch.createdAt().toString().substring(0, 19) + "Z",
                    Cells.cut(batch.selection().describe(), 60));
        }
        out.printf("%d batch(es)%n", batches.size());
    }

    /** The newest batches, as text or JSON; exit 0. */
    static int listNewest(TriageSession session, PrintWriter out, boolean json) {
        List<DurableBatch> newest = session.batches().newest(BATCHES_LISTED);
        if (json) {
            DecisionPrinter.json(out, newest);
        } else {
            list(out, newest, Instant.now());
        }
        out.flush();
        return ExitCode.OK;
    }

    /** One batch: its row as the list shows it, then each item's decision and outcome now, then the outcome counts. */
    static void show(PrintWriter out, BatchOutcomes.Report report) {
        list(out, List.of(report.batch()), Instant.now());
        out.printf(ITEM_ROW, "ITEM", "OPERATION / ENTRY", "ENTRY", "OUTCOME", "WHAT HAPPENED");
        for (BatchOutcomes.Item item : report.items()) {
            out.printf(ITEM_ROW, item.seq(), item.operationId() == null ? "entry " + item.dlqEntryId() : item.operationId(),
                    item.dlqEntryId() == null ? "-" : item.dlqEntryId(), item.outcome().name(), item.whatHappened());
        }
        out.println(report.summary());
    }

    /** The line after a run's end: "outcomes now: 26 item(s): 16 still running, ...; see redrive batch show 7". */
    static String outcomesNow(long batchId, BatchOutcomes.Tally tally) {
        return "batch " + batchId + " outcomes now: " + tally.summary() + "; see: redrive batch show " + batchId;
    }

    /** "4,000/12,000 (33%)". */
    static String progress(DurableBatch batch) {
        return String.format(Locale.ROOT, "%,d/%,d (%.0f%%)", batch.done(), Math.max(batch.total(), batch.done()),
                batch.fraction() * 100);
    }

    /** "batch 7: redrive of fingerprint fp-1, 12,000 item(s); if it stops, go on with: redrive batch resume 7". */
    static String started(DurableBatch batch) {
        return String.format(Locale.ROOT, "batch %d: %s of %s, %,d item(s); if it stops, go on with: redrive batch resume %d",
                batch.id(), batch.kind().name().toLowerCase(Locale.ROOT), batch.selection().describe(), batch.total(),
                batch.id());
    }

    /** "batch 7: resuming the redrive of fingerprint fp-1 at 4,000/12,000 (33%)". */
    static String resuming(DurableBatch batch) {
        return String.format(Locale.ROOT, "batch %d: resuming the %s of %s at %s", batch.id(),
                batch.kind().name().toLowerCase(Locale.ROOT), batch.selection().describe(), progress(batch));
    }

    /** "batch 7 DONE: 12,000/12,000 (100%) taken: 11,990 decided, 10 blocked, 0 failed". */
    static String ended(BatchRun run) {
        DurableBatch batch = run.batch();
        String line = String.format(Locale.ROOT, "batch %d %s: %s taken: %,d decided, %,d blocked, %,d failed",
                batch.id(), batch.state(), progress(batch), batch.succeeded(), batch.blocked(), batch.failed());
        if (batch.error() != null) {
            line += " (" + batch.error() + ")";
        }
        if (batch.decidedElsewhere() > 0) {
            line += String.format(Locale.ROOT, "; %,d item(s) counted at the start were decided elsewhere, or no "
                    + "longer matched, before the batch reached them", batch.decidedElsewhere());
        }
        return switch (batch.state()) {
            case STOPPED, FAILED, RUNNING -> line + "; go on with: redrive batch resume " + batch.id();
            case DONE -> line;
        };
    }
}
