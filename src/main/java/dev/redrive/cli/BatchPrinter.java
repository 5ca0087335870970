package dev.redrive.cli;

import dev.redrive.triage.decision.BatchState;
import dev.redrive.triage.decision.DurableBatch;
import dev.redrive.triage.decision.DurableBatches.BatchRun;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/** Prints durable batches: the list of {@code redrive --batches}, and the line that ends a batch's run. */
final class BatchPrinter {
    private static final String ROW = "%6s  %-9s  %-8s  %-24s  %9s  %9s  %7s  %-12s  %-20s  %s%n";

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

    /** "4,000/12,000 (33%)". */
    static String progress(DurableBatch batch) {
        return String.format(Locale.ROOT, "%,d/%,d (%.0f%%)", batch.done(), Math.max(batch.total(), batch.done()),
                batch.fraction() * 100);
    }

    /** "batch 7: redrive of fingerprint fp-1, 12,000 item(s); if it stops, go on with: redrive --resume 7". */
    static String started(DurableBatch batch) {
        return String.format(Locale.ROOT, "batch %d: %s of %s, %,d item(s); if it stops, go on with: redrive --resume %d",
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
        return switch (batch.state()) {
            case STOPPED, FAILED, RUNNING -> line + "; go on with: redrive --resume " + batch.id();
            case DONE -> line;
        };
    }
}
