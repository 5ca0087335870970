package dev.redrive.triage.decision;

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

    /** A durable batch's run holds it now, before its first chunk: where it stands (said when it is resumed). */
    default void claimed(DurableBatch batch) {
    }
}
