package dev.redrive.cli;

import dev.redrive.triage.decision.DecisionResult;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.List;

/** What resolve and discard share: the reason and operator every decision needs, and how its outcome is printed. */
final class SingleDecisionOptions {
    @Option(names = "--reason", required = true, paramLabel = "TEXT", description = "why")
    String reason;

    @Mixin
    OperatorOption operator;

    @Mixin
    JsonOption json;

    String operator() {
        return operator.name();
    }

    /** Prints the outcome and returns the exit code (3 when blocked or decided by someone else). */
    int report(PrintWriter out, DecisionResult decided) {
        if (json.on()) {
            DecisionPrinter.json(out, decided);
        } else {
            DecisionPrinter.print(out, decided, false);
        }
        out.flush();
        return DecisionPrinter.exitCode(List.of(decided));
    }
}
