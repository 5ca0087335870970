package dev.redrive.triage.decision.batch;

import dev.redrive.triage.decision.DecisionResult;

/** Hears about each item of a batch as it is decided (for progress bars), and may stop the batch. */
@FunctionalInterface
public interface BatchListener {
    BatchListener NONE = (done, total, result) -> { };

    void itemDone(int done, int total, DecisionResult result);

    /**
     * Asked before each chunk: true stops the batch there. The chunks already taken are decided in full, the items not
     * reached are left untouched and missing from the report.
     */
    default boolean stopRequested() {
        return false;
    }
}
