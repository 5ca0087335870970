package dev.redrive.store.command;

import dev.redrive.envelope.Traceparent;
import dev.redrive.store.Jdbc;

import java.time.Instant;
import java.util.List;
import java.util.function.Function;

/**
 * The one writer of issued redrive commands (redrives, batches and corrections alike): many in one statement, each
 * ISSUED, with the operator's own trace when the console or CLI runs inside one. The worker moves them on from there.
 */
public final class RedriveCommandLog {
    private static final String ISSUE = """
            INSERT INTO redrive_commands (command_id, operation_id, dlq_entry_id, operator, reason, issued_at,
                                          from_attempt, to_attempt, target_schema_version, preconditions, status,
                                          operator_traceparent)
            SELECT v.command_id, v.operation_id, v.dlq_entry_id, ?, ?, ?, v.from_attempt, v.to_attempt,
                   v.target_schema_version, v.preconditions, 'ISSUED', ?
              FROM unnest(?::text[]::uuid[], ?::text[], ?::text[]::bigint[], ?::text[]::int[], ?::text[]::int[],
                          ?::text[], ?::text[]::jsonb[])
                   AS v(command_id, operation_id, dlq_entry_id, from_attempt, to_attempt, target_schema_version,
                        preconditions)""";

    private final Jdbc jdbc;

    public RedriveCommandLog(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    public void issue(List<IssuedCommand> commands, String operator, String reason, Instant at) {
        if (commands.isEmpty()) {
            return;
        }
        jdbc.update(ISSUE, operator, reason, at, Traceparent.current(),
                column(commands, IssuedCommand::commandId), column(commands, IssuedCommand::operationId),
                column(commands, IssuedCommand::entryId), column(commands, IssuedCommand::fromAttempt),
                column(commands, IssuedCommand::toAttempt), column(commands, IssuedCommand::schemaVersion),
                column(commands, IssuedCommand::preconditions));
    }

    private static String[] column(List<IssuedCommand> rows, Function<IssuedCommand, Object> field) {
        return rows.stream().map(field).map(value -> value == null ? null : value.toString()).toArray(String[]::new);
    }
}
