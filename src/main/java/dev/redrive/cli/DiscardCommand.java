package dev.redrive.cli;

import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.precondition.DecisionTarget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

@Command(name = "discard", mixinStandardHelpOptions = true,
        description = "Give a dead-lettered operation up, with a reason; it never runs again.")
final class DiscardCommand implements Callable<Integer> {
    @Mixin
    ConnectionOptions connection;

    @Parameters(paramLabel = "OP", description = "operation id")
    String operationId;

    @Mixin
    SingleDecisionOptions decision;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        try (TriageSession session = new TriageSession(connection)) {
            DecisionResult decided = session.decisions().discard(DecisionTarget.operation(operationId),
                    decision.operator(), decision.reason);
            return decision.report(spec.commandLine().getOut(), decided);
        }
    }
}
