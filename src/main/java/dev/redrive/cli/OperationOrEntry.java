package dev.redrive.cli;

import dev.redrive.triage.precondition.DecisionTarget;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Which dead letter a command is about: an operation by its id, or a DLQ entry by its id. The entry id is the only
 * handle on a message dead-lettered as itself (a malformed dispatch), which has no operation.
 */
final class OperationOrEntry {
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Parameters(paramLabel = "OP", arity = "0..1", description = "operation id (run_id:node_id:logical_attempt)")
    String operationId;

    @Option(names = "--entry", paramLabel = "ID",
            description = "a DLQ entry id instead of OP; the way to reach a dead letter without an operation (a malformed dispatch)")
    Long entryId;

    /** The operation or entry named; bad input (exit 2) unless exactly one of them is. */
    DecisionTarget target() {
        if ((operationId == null) == (entryId == null)) {
            throw new ParameterException(command.commandLine(), "expected an operation id (OP) or --entry ID, exactly one of them");
        }
        return entryId != null ? DecisionTarget.entry(entryId) : DecisionTarget.operation(operationId);
    }
}
