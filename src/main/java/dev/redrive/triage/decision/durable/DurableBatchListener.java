package dev.redrive.triage.decision.durable;

import dev.redrive.triage.decision.batch.BatchListener;

/** Hears a durable batch's run: each item as any batch's listener does, and first where the batch stood. */
@FunctionalInterface
public interface DurableBatchListener extends BatchListener {
    DurableBatchListener NONE = (done, total, result) -> { };

    /** The run holds the batch now, before its first chunk: where it stands (said when it is resumed). */
    default void claimed(DurableBatch batch) {
    }
}
