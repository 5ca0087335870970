package dev.redrive.triage.request;

import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.precondition.PreconditionResult;

import java.util.List;

/**
 * What became of a decision the four-eyes policy covers: a request recorded for a second operator, or nothing recorded
 * because the decision could not be taken anyway (a precondition fails already).
 *
 * @param request the recorded request; null when it was not recorded
 * @param outcome {@link DecisionOutcome#BLOCKED} or {@link DecisionOutcome#ALREADY_DECIDED} when not recorded
 * @param message one line for the operator
 * @param failed  the checks that failed, when not recorded
 */
public record Submission(DecisionRequest request, DecisionOutcome outcome, String message,
                         List<PreconditionResult> failed) {
    public Submission {
        failed = List.copyOf(failed);
    }

    public boolean recorded() {
        return request != null;
    }
}
