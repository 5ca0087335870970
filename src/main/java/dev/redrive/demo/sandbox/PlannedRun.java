package dev.redrive.demo.sandbox;

import java.util.List;

/** A run of the seeded incident and the operations it dispatches. */
public record PlannedRun(String runId, String story, List<PlannedOperation> operations) {
    public PlannedRun {
        operations = List.copyOf(operations);
    }
}
