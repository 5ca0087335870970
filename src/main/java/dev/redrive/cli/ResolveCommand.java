package dev.redrive.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.triage.precondition.DecisionTarget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "resolve", mixinStandardHelpOptions = true,
        description = "Mark a dead-lettered operation succeeded with the reconciled result; it never runs again.")
final class ResolveCommand implements Callable<Integer> {
    @Mixin
    ConnectionOptions connection;

    @Parameters(paramLabel = "OP", description = "operation id")
    String operationId;

    @Option(names = "--reason", required = true, paramLabel = "TEXT", description = "why")
    String reason;

    @Option(names = "--result", paramLabel = "JSON",
            description = "the operation's result (default: the result of its latest APPLIED reconciliation)")
    String result;

    @Option(names = "--operator", paramLabel = "NAME", description = "who decides (default: the OS user)")
    String operator;

    @Option(names = "--json", description = "print JSON")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        JsonNode parsed = result == null ? null : parseResult(result);
        try (TriageSession session = new TriageSession(connection)) {
            DecisionResult decided = session.decisions().resolve(DecisionTarget.operation(operationId), parsed,
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

    static JsonNode parseResult(String text) {
        try {
            return TriageJson.mapper().readTree(text);
        } catch (IOException e) {
            throw new IllegalArgumentException("--result must be JSON, got '" + text + "'");
        }
    }
}
