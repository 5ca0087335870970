package dev.redrive.console.batch;

import dev.redrive.triage.decision.durable.BatchState;
import dev.redrive.triage.decision.durable.DurableBatch;

import java.time.Instant;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * One batch as the list shows it: what it decides, how far it got, how fast it goes and how long it still takes.
 *
 * @param itemsPerSecond measured over the last reads; empty when it does not run or nothing is measured yet
 * @param runHere        this console runs it (its Stop is immediate; others are asked through the database)
 */
record BatchRow(DurableBatch batch, OptionalDouble itemsPerSecond, boolean runHere, Instant readAt) {

    long id() {
        return batch.id();
    }

    String what() {
        return batch.kind().name().toLowerCase(Locale.ROOT) + " " + batch.selection().describe();
    }

    String who() {
        return batch.operator() + (batch.dbLogin() == null ? "" : " (login " + batch.dbLogin() + ")");
    }

    /** "RUNNING here", "RUNNING (another process)", "RUNNING, abandoned: resumable", "STOPPED", "DONE". */
    String state() {
        if (batch.state() != BatchState.RUNNING) {
            return batch.state().name() + (batch.error() == null ? "" : ": " + batch.error());
        }
        if (runHere) {
            return "RUNNING here";
        }
        return batch.heldAt(readAt) ? "RUNNING (another process)" : "RUNNING, abandoned: resumable";
    }

    /** "4,120 of 10,000 (41%)". */
    String progress() {
        return String.format(Locale.ROOT, "%,d of %,d (%d%%)", batch.done(), Math.max(batch.total(), batch.done()),
                Math.round(batch.fraction() * 100));
    }

    /** "212 items/s · 27 s left", or what is known of it. */
    String pace() {
        if (batch.state() != BatchState.RUNNING) {
            return batch.state() == BatchState.DONE ? "" : String.format(Locale.ROOT, "%,d left", batch.remaining());
        }
        if (itemsPerSecond.isEmpty()) {
            return "measuring…";
        }
        double rate = itemsPerSecond.getAsDouble();
        OptionalDouble left = DurableBatch.secondsLeft(batch.remaining(), rate);
        return String.format(Locale.ROOT, Math.round(rate) == 1 ? "%,.0f item/s" : "%,.0f items/s", rate)
                + (rate <= 0 || left.isEmpty() ? ""
                : " · " + DurableBatch.duration(left.getAsDouble()) + " left");
    }

    /** Whether Resume can take it: stopped, failed, or running with nobody holding it. */
    boolean resumable() {
        return !runHere && (batch.state() == BatchState.STOPPED || batch.state() == BatchState.FAILED
                || batch.state() == BatchState.RUNNING && !batch.heldAt(readAt));
    }

    boolean stoppable() {
        return batch.state() == BatchState.RUNNING && (runHere || batch.heldAt(readAt));
    }
}
