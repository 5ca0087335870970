package dev.redrive.triage.decision.verify;

import dev.redrive.store.Database;
import dev.redrive.store.Jdbc;
import dev.redrive.triage.decision.lookup.SideEffectLookup;
import dev.redrive.triage.decision.verify.RedriveVerification.Verdict;
import dev.redrive.triage.detail.RedriveCommandStatus;
import dev.redrive.worker.tool.EffectCount;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.UUID;

/**
 * Checks, after a redrive, that the operation then succeeded exactly once: its attempts from the store, its effects
 * from the tool itself ({@link SideEffectLookup#countEffects}), never from a tool's own tables. Read-only.
 */
public final class RedriveVerifier {
    private static final String COMMAND = """
            SELECT c.command_id, c.operation_id, c.status, c.to_attempt, o.idempotency_key, o.tool,
                   o.status AS operation_status,
                   (SELECT count(*) FROM attempts a
                     WHERE a.operation_id = c.operation_id AND a.attempt >= c.to_attempt AND a.outcome = 'SUCCEEDED')
                       AS succeeded_after,
                   (SELECT count(*) FROM attempts a
                     WHERE a.operation_id = c.operation_id AND a.outcome = 'SUCCEEDED') AS succeeded_total
            FROM redrive_commands c JOIN operations o ON o.operation_id = c.operation_id
            WHERE c.command_id = ?""";

    private static final String LATEST_COMMAND = """
            SELECT command_id FROM redrive_commands WHERE operation_id = ? ORDER BY issued_at DESC, command_id LIMIT 1""";

    private final Jdbc jdbc;
    private final SideEffectLookup tools;

    /** @param tools asked to count the effects of the redriven operation's idempotency key */
    public RedriveVerifier(Database database, SideEffectLookup tools) {
        this.jdbc = database.jdbc();
        this.tools = tools;
    }

    public Optional<RedriveVerification> verify(UUID commandId) {
        return jdbc.queryOne(COMMAND, Facts::read, commandId).map(this::verdictOn);
    }

    /** The verification of the operation's latest redrive command, if it has one. */
    public Optional<RedriveVerification> latest(String operationId) {
        return jdbc.queryOne(LATEST_COMMAND, row -> row.getObject(1, UUID.class), operationId).flatMap(this::verify);
    }

    /** The tool is asked once the worker is done: while it still runs, its count would only be a guess. */
    private RedriveVerification verdictOn(Facts facts) {
        boolean running = facts.status == RedriveCommandStatus.ISSUED || facts.status == RedriveCommandStatus.EXECUTING;
        EffectCount count = running ? EffectCount.notCountable("not asked while the command is " + facts.status)
                : tools.countEffects(facts.tool, facts.idempotencyKey);
        Verdict verdict = verdict(facts, count.effects());
        return new RedriveVerification(facts.commandId, facts.operationId, facts.idempotencyKey, facts.status,
                facts.toAttempt, facts.succeededAfter, facts.succeededTotal, count.effects(), count.evidence(), verdict,
                explain(verdict, facts, count));
    }

    private static Verdict verdict(Facts facts, Long effects) {
        if (facts.succeededTotal > 1 || (effects != null && effects > 1)) {
            return Verdict.DUPLICATED;
        }
        return switch (facts.status) {
            case ISSUED, EXECUTING -> Verdict.WAITING;
            case FAILED -> Verdict.FAILED;
            case SUCCEEDED -> {
                if (facts.succeededAfter != 1) {
                    yield Verdict.DUPLICATED;
                }
                if (effects == null) {
                    yield Verdict.SUCCEEDED_NOT_VERIFIABLE;
                }
                yield effects == 1 ? Verdict.SUCCEEDED_ONCE : Verdict.NO_EFFECT;
            }
        };
    }

    private static String explain(Verdict verdict, Facts facts, EffectCount count) {
        String effects = count.countable() ? "the tool counts " + count.effects() + " effect(s) for the idempotency key"
                : "effects not verifiable for this tool (" + count.evidence() + ")";
        String once = "attempt " + facts.toAttempt + " succeeded, exactly one successful attempt after the command; ";
        return switch (verdict) {
            case WAITING -> "command is " + facts.status + ": the worker has not finished attempt " + facts.toAttempt + " yet";
            case SUCCEEDED_ONCE, SUCCEEDED_NOT_VERIFIABLE, NO_EFFECT -> once + effects;
            case FAILED -> "the redriven attempt failed again (operation is " + facts.operationStatus + ")";
            case DUPLICATED -> facts.succeededAfter + " successful attempt(s) after the command, " + facts.succeededTotal
                    + " in all; " + effects;
        };
    }

    private record Facts(UUID commandId, String operationId, String idempotencyKey, String tool,
                         RedriveCommandStatus status, int toAttempt, long succeededAfter, long succeededTotal,
                         String operationStatus) {
        static Facts read(ResultSet row) throws SQLException {
            return new Facts(row.getObject("command_id", UUID.class), row.getString("operation_id"),
                    row.getString("idempotency_key"), row.getString("tool"),
                    RedriveCommandStatus.valueOf(row.getString("status")), row.getInt("to_attempt"),
                    row.getLong("succeeded_after"), row.getLong("succeeded_total"), row.getString("operation_status"));
        }
    }
}
