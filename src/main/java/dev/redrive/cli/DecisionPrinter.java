package dev.redrive.cli;

import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.decision.batch.BatchReport;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.triage.precondition.PreconditionReport;
import dev.redrive.triage.precondition.PreconditionResult;

import java.io.PrintWriter;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/** Prints decision results and turns them into the command's exit code. */
final class DecisionPrinter {
    private DecisionPrinter() {
    }

    static void print(PrintWriter out, DecisionResult result, boolean everyCheck) {
        print(out, result.subject(), result.outcome(), result.message(), result.preconditions(), everyCheck);
    }

    /** A result's line, then its failed checks (every check with {@code everyCheck}, as a dry run shows them). */
    static void print(PrintWriter out, String subject, Enum<?> outcome, String message, PreconditionReport checks,
                      boolean everyCheck) {
        out.println(line(subject, outcome, message));
        if (checks != null) {
            for (PreconditionResult check : checks.results()) {
                if (everyCheck || !check.passed()) {
                    out.println("  " + check.line());
                }
            }
        }
    }

    /**
     * "SUBJECT: OUTCOME message", leaving out what the message repeats of the two: "entry 12: DONE discarded by bob"
     * and "r:n:0: REFUSED by the database: …", not "DONE entry 12 discarded" or "REFUSED refused by". The outcome
     * keeps its name, which scripts match.
     */
    static String line(String subject, Enum<?> outcome, String message) {
        String rest = message == null ? "" : message;
        return subject + ": " + outcome(outcome, rest.startsWith(subject + " ") ? rest.substring(subject.length() + 1)
                : rest);
    }

    /** "OUTCOME message", leaving out the message's first words when they only repeat the outcome. */
    static String outcome(Enum<?> outcome, String message) {
        String words = outcome.name().toLowerCase(Locale.ROOT).replace('_', ' ');
        boolean repeats = message.toLowerCase(Locale.ROOT).startsWith(words)
                && (message.length() == words.length() || !Character.isLetterOrDigit(message.charAt(words.length())));
        return outcome + (repeats ? message.substring(words.length()) : " " + message);
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
