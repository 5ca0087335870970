package dev.redrive.cli;

import dev.redrive.triage.decision.BatchReport;
import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.triage.precondition.PreconditionResult;

import java.io.PrintWriter;
import java.util.List;

/** Prints decision results and turns them into the command's exit code. */
final class DecisionPrinter {
    private DecisionPrinter() {
    }

    static void print(PrintWriter out, DecisionResult result, boolean everyCheck) {
        out.printf("%s: %s %s%n", result.operationId(), result.outcome(), result.message());
        if (result.preconditions() != null) {
            for (PreconditionResult check : result.preconditions().results()) {
                if (everyCheck || !check.passed()) {
                    out.println("  " + check.line());
                }
            }
        }
    }

    static void print(PrintWriter out, BatchReport report) {
        for (DecisionResult item : report.items()) {
            print(out, item, report.dryRun());
        }
        out.println(report.summary());
    }

    static void json(PrintWriter out, Object value) {
        out.println(TriageJson.write(value));
    }

    /** 0 when everything was done (or would be), {@link RedriveCommand#EXIT_BLOCKED} when anything was refused. */
    static int exitCode(List<DecisionResult> results) {
        if (results.stream().anyMatch(r -> r.outcome() == DecisionOutcome.BLOCKED || r.outcome() == DecisionOutcome.ALREADY_DECIDED)) {
            return RedriveCommand.EXIT_BLOCKED;
        }
        if (results.stream().anyMatch(r -> r.outcome() == DecisionOutcome.NOT_PUBLISHED || r.outcome() == DecisionOutcome.REFUSED)) {
            return 1;
        }
        return 0;
    }
}
