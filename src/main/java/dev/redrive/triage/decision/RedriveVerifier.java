package dev.redrive.triage.decision;

import dev.redrive.store.Database;
import dev.redrive.store.Jdbc;
import dev.redrive.triage.decision.RedriveVerification.Verdict;
import dev.redrive.triage.detail.RedriveCommandStatus;

import java.util.Optional;
import java.util.UUID;

/** Checks, after a redrive, that the operation then succeeded exactly once. Read-only. */
public final class RedriveVerifier {
    private static final String COMMAND = """
            SELECT c.command_id, c.operation_id, c.status, c.to_attempt, o.idempotency_key, o.status AS operation_status,
                   (SELECT count(*) FROM attempts a
                     WHERE a.operation_id = c.operation_id AND a.attempt >= c.to_attempt AND a.outcome = 'SUCCEEDED')
                       AS succeeded_after,
                   (SELECT count(*) FROM attempts a
                     WHERE a.operation_id = c.operation_id AND a.outcome = 'SUCCEEDED') AS succeeded_total,
                   (SELECT count(*) FROM demo_tool_calls k WHERE k.idempotency_key = o.idempotency_key) AS demo_calls,
                   (SELECT count(*) FROM demo_tool_effects e WHERE e.idempotency_key = o.idempotency_key) AS effects
            FROM redrive_commands c JOIN operations o ON o.operation_id = c.operation_id
            WHERE c.command_id = ?""";

    private static final String LATEST_COMMAND = """
            SELECT command_id FROM redrive_commands WHERE operation_id = ? ORDER BY issued_at DESC, command_id LIMIT 1""";

    private final Jdbc jdbc;

    public RedriveVerifier(Database database) {
        this.jdbc = database.jdbc();
    }

    public Optional<RedriveVerification> verify(UUID commandId) {
        return jdbc.queryOne(COMMAND, row -> {
            RedriveCommandStatus status = RedriveCommandStatus.valueOf(row.getString("status"));
            long after = row.getLong("succeeded_after");
            long total = row.getLong("succeeded_total");
            Long effects = row.getLong("demo_calls") == 0 ? null : row.getLong("effects");
            int toAttempt = row.getInt("to_attempt");
            Verdict verdict = verdict(status, after, total, effects);
            return new RedriveVerification(commandId, row.getString("operation_id"), row.getString("idempotency_key"),
                    status, toAttempt, after, total, effects, verdict,
                    explain(verdict, status, toAttempt, after, total, effects, row.getString("operation_status")));
        }, commandId);
    }

    /** The verification of the operation's latest redrive command, if it has one. */
    public Optional<RedriveVerification> latest(String operationId) {
        return jdbc.queryOne(LATEST_COMMAND, row -> row.getObject(1, UUID.class), operationId).flatMap(this::verify);
    }

    private static Verdict verdict(RedriveCommandStatus status, long after, long total, Long effects) {
        if (total > 1 || (effects != null && effects > 1)) {
            return Verdict.DUPLICATED;
        }
        return switch (status) {
            case ISSUED, EXECUTING -> Verdict.WAITING;
            case FAILED -> Verdict.FAILED;
            case SUCCEEDED -> after == 1 && (effects == null || effects == 1) ? Verdict.SUCCEEDED_ONCE : Verdict.DUPLICATED;
        };
    }

    private static String explain(Verdict verdict, RedriveCommandStatus status, int toAttempt, long after, long total,
                                  Long effects, String operationStatus) {
        String effectText = effects == null ? "effects not countable for this tool" : effects + " effect(s) for the idempotency key";
        return switch (verdict) {
            case WAITING -> "command is " + status + ": the worker has not finished attempt " + toAttempt + " yet";
            case SUCCEEDED_ONCE -> "attempt " + toAttempt + " succeeded, exactly one successful attempt after the command; "
                    + effectText;
            case FAILED -> "the redriven attempt failed again (operation is " + operationStatus + ")";
            case DUPLICATED -> after + " successful attempt(s) after the command, " + total + " in all; " + effectText;
        };
    }
}
