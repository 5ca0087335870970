package dev.redrive.triage.decision;

/** Hears about each item of a batch as it is decided: for progress bars. */
@FunctionalInterface
public interface BatchListener {
    BatchListener NONE = (done, total, result) -> { };

    void itemDone(int done, int total, DecisionResult result);
}
