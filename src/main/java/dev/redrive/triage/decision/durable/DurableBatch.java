package dev.redrive.triage.decision.durable;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.redrive.triage.decision.DecisionKind;

import java.time.Duration;
import java.time.Instant;
import java.util.OptionalDouble;

/**
 * One durable batch as its row says now.
 *
 * @param dbLogin    the database login that created it, stamped by the database
 * @param position   the key of the last item taken (see {@link BatchSelection}); null before the first chunk
 * @param total      how many items the selection held when the batch was created
 * @param done       items taken so far, over every run of the batch
 * @param succeeded  of those, the items decided
 * @param blocked    of those, the items a precondition blocked or someone else had decided
 * @param failed     items the database refused (the batch then FAILED)
 * @param leftOut    open entries of the selection without an operation of their own, decided by entry id instead
 * @param owner      the process running it now, null when nobody does
 * @param leaseUntil how long the owner holds it without another heartbeat
 */
public record DurableBatch(
        long id,
        DecisionKind kind,
        BatchSelection selection,
        String operator,
        String dbLogin,
        String reason,
        String schemaVersion,
        double itemsPerSecond,
        int chunkSize,
        BatchState state,
        String position,
        long total,
        long done,
        long succeeded,
        long blocked,
        long failed,
        long leftOut,
        String owner,
        Instant leaseUntil,
        String error,
        Instant createdAt,
        Instant updatedAt,
        Instant finishedAt) {

    /** The share of the items taken, 0 to 1 (1 once DONE, whatever the selection held at the start). */
    public double fraction() {
        if (state == BatchState.DONE) {
            return 1;
        }
        return total == 0 ? 0 : Math.min(1, (double) done / total);
    }

    /** Whether a process holds it at {@code now}: its owner's lease has not run out. */
    public boolean heldAt(Instant now) {
        return state == BatchState.RUNNING && owner != null && leaseUntil != null && leaseUntil.isAfter(now);
    }

    /** How long the items not taken yet take at {@code itemsPerSecond}; empty when nothing is known yet. */
    public static OptionalDouble secondsLeft(long remaining, double itemsPerSecond) {
        return itemsPerSecond <= 0 ? OptionalDouble.empty() : OptionalDouble.of(remaining / itemsPerSecond);
    }

    /**
     * Of a DONE batch, the items counted at its start that its walk did not find: decided elsewhere (another batch,
     * another operator) before it came to them, or changed so that they no longer match its selection (a reconciled
     * side effect under a side-effect filter). Items left out for want of an operation are not among them.
     */
    @JsonProperty
    public long decidedElsewhere() {
        return state == BatchState.DONE ? Math.max(0, total - done - leftOut) : 0;
    }

    public long remaining() {
        return Math.max(0, total - done);
    }

    /** "1 h 02 min", "3 min 07 s", "12 s": an ETA for a line. */
    public static String duration(double seconds) {
        Duration left = Duration.ofSeconds(Math.round(seconds));
        if (left.toHours() > 0) {
            return String.format("%d h %02d min", left.toHours(), left.toMinutesPart());
        }
        if (left.toMinutes() > 0) {
            return String.format("%d min %02d s", left.toMinutes(), left.toSecondsPart());
        }
        return left.toSeconds() + " s";
    }
}
