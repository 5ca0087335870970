package dev.redrive.cli;

import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.precondition.PreconditionResult;
import dev.redrive.triage.request.RequestKind;
import dev.redrive.triage.request.RequestOptions;
import dev.redrive.triage.request.Submission;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the decision commands meet the four-eyes policy: a covered decision is recorded as a request instead of being
 * taken, said in one line with the request id, and the command exits {@link ExitCode#WAITS_FOR_APPROVAL}.
 */
final class FourEyesGate {
    private FourEyesGate() {
    }

    /**
     * @return the exit code when the policy covers the decision (a request was recorded, or the decision is blocked
     *         already and nothing was); empty when the command takes the decision itself
     */
    static Optional<Integer> submit(TriageSession session, RequestKind kind, List<DecisionTarget> targets,
                                    String selection, RequestOptions options, String operator, String reason,
                                    boolean json, PrintWriter out) {
        Optional<Submission> submitted = session.requests().submitIfCovered(kind, targets, selection, options, operator,
                reason);
        if (submitted.isEmpty()) {
            return Optional.empty();
        }
        Submission submission = submitted.get();
        if (json) {
            DecisionPrinter.json(out, submission.recorded() ? submission.request()
                    : Map.of("outcome", submission.outcome(), "message", submission.message(), "failed",
                    submission.failed()));
        } else if (submission.recorded()) {
            out.println(submission.message() + "; a second operator approves it with: redrive request approve "
                    + submission.request().id() + " --operator NAME");
        } else {
            out.println(DecisionPrinter.outcome(submission.outcome(), submission.message()));
            submission.failed().stream().map(PreconditionResult::line).forEach(line -> out.println("  " + line));
        }
        out.flush();
        return Optional.of(submission.recorded() ? ExitCode.WAITS_FOR_APPROVAL
                : DecisionPrinter.exitCode(submission.outcome()));
    }
}
