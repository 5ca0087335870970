package dev.redrive.cli;

import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.decision.batch.BatchReport;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.triage.precondition.PreconditionResult;

import java.io.PrintWriter;
import java.util.Collection;
import java.util.List;

/** Prints decision results and turns them into the command's exit code. */
final class DecisionPrinter {
    private DecisionPrinter() {
    }

    static void print(PrintWriter out, DecisionResult result, boolean everyCheck) {
        out.printf("%s: %s %s%n", result.subject(), result.outcome(), result.message());
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

    /**
     * The exit code of a decision or a batch: {@link ExitCode#REFUSED} when the database refused any item
     * (a viewer's login), else {@link ExitCode#BLOCKED} when any was blocked or decided by someone else, else
     * {@link ExitCode#UNEXPECTED} when a recorded redrive could not be published, else 0.
     */
    static int exitCode(List<DecisionResult> results) {
        return exitCode(results.stream().map(DecisionResult::outcome).toList());
    }

    /** The exit code of one decision's outcome (a correction's, say), by the same rule. */
    static int exitCode(DecisionOutcome outcome) {
        return exitCode(List.of(outcome));
    }

    static int exitCode(Collection<DecisionOutcome> outcomes) {
        if (outcomes.contains(DecisionOutcome.REFUSED)) {
            return ExitCode.REFUSED;
        }
        if (outcomes.contains(DecisionOutcome.BLOCKED) || outcomes.contains(DecisionOutcome.ALREADY_DECIDED)) {
            return ExitCode.BLOCKED;
        }
        if (outcomes.contains(DecisionOutcome.NOT_PUBLISHED)) {
            return ExitCode.UNEXPECTED;
        }
        return ExitCode.OK;
    }
}
