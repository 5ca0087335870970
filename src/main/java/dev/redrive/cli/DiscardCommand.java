package dev.redrive.cli;

import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.precondition.DecisionTarget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "discard", mixinStandardHelpOptions = true,
        description = "Give a dead-lettered operation up, with a reason; it never runs again.")
final class DiscardCommand implements Callable<Integer> {
    @Mixin
    ConnectionOptions connection;

    @Parameters(paramLabel = "OP", description = "operation id")
    String operationId;

    @Option(names = "--reason", required = true, paramLabel = "TEXT", description = "why")
    String reason;

    @Option(names = "--operator", paramLabel = "NAME", description = "who decides (default: the OS user)")
    String operator;

    @Option(names = "--json", description = "print JSON")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        try (TriageSession session = new TriageSession(connection)) {
            DecisionResult decided = session.decisions().discard(DecisionTarget.operation(operationId),
                    TriageSession.operator(operator), reason);
            PrintWriter out = spec.commandLine().getOut();
            if (json) {
                DecisionPrinter.json(out, decided);
            } else {
                DecisionPrinter.print(out, decided, false);
            }
            out.flush();
            return DecisionPrinter.exitCode(List.of(decided));
        }
    }
}
