package dev.redrive.store.operation;

import dev.redrive.model.OperationStatus;
import dev.redrive.model.RunStatus;
import dev.redrive.store.Jdbc;
import dev.redrive.store.audit.AuditAction;
import dev.redrive.store.audit.AuditLine.AuditSubject;
import dev.redrive.store.audit.AuditLine;
import dev.redrive.store.audit.AuditLog;

import java.time.Instant;
import java.util.Map;

/** Run status changes made on behalf of the workflow runtime (the {@code run cancel} command). */
public final class RunStore {
    private static final String CANCEL_RUN = """
            UPDATE runs SET status = 'CANCELLED', status_reason = ?, updated_at = ?
             WHERE run_id = ? AND status = ANY (?)
            """;

    private static final String RUN_STATUS = "SELECT status FROM runs WHERE run_id = ?";

    /* Operations that have not started yet can never run now; running and dead-lettered ones keep their state. */
    private static final String CANCEL_WAITING_OPERATIONS = """
            UPDATE operations SET status = 'CANCELLED', updated_at = ?
             WHERE run_id = ? AND status IN ('PENDING', 'RETRY_SCHEDULED') AND status = ANY (?)
            """;

    private final Jdbc jdbc;
    private final AuditLog audit;

    public RunStore(Jdbc jdbc) {
        this.jdbc = jdbc;
        this.audit = new AuditLog(jdbc);
    }

    /**
     * Cancels a running run and the operations of it that are still waiting.
     *
     * @return how many waiting operations were cancelled with it
     * @throws IllegalArgumentException when the run is unknown
     * @throws RunEndedException        when it has ended already
     */
    public int cancel(String runId, String reason, String actor, Instant now) {
        return jdbc.inTransaction(() -> {
            int updated = jdbc.update(CANCEL_RUN, reason, now, runId, RunStatus.allowedBefore(RunStatus.CANCELLED));
            if (updated == 0) {
                String status = jdbc.queryOne(RUN_STATUS, row -> row.getString(1), runId)
                        .orElseThrow(() -> new IllegalArgumentException("run " + runId + " is not known"));
                throw new RunEndedException(runId, status);
            }
            int operations = jdbc.update(CANCEL_WAITING_OPERATIONS, now, runId,
                    OperationStatus.allowedBefore(OperationStatus.CANCELLED));
            audit.append(new AuditLine(now, actor, AuditAction.RUN_CANCELLED, AuditSubject.NONE, reason,
                    Map.of("run_id", runId, "operations_cancelled", operations)));
            return operations;
        });
    }
}
