package dev.redrive.demo.sandbox;

import java.util.List;

/**
 * The planned incident: its runs, and the after-the-fact changes that make redrives unsafe — the approval that gets
 * revoked and the run that gets cancelled (the schema change is {@link IncidentScenario#CHANGED_TOOL}) — and the run
 * of the one payout whose discard waits for a second operator.
 */
public record SeededIncident(List<PlannedRun> runs, String billingRunId, String revokedApprovalId,
                             String cancelledRunId, String payoutsRunId) {
    public SeededIncident {
        runs = List.copyOf(runs);
    }

    public int operationCount() {
        return runs.stream().mapToInt(run -> run.operations().size()).sum();
    }
}
