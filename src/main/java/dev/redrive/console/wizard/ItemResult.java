package dev.redrive.console.wizard;

import dev.redrive.triage.correction.CorrectionResult;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.decision.verify.RedriveVerification;
import dev.redrive.triage.detail.AttemptRecord;
import dev.redrive.triage.detail.DlqEntryRecord;
import dev.redrive.triage.detail.OperationDetails;
import dev.redrive.triage.detail.RedriveCommandStatus;
import dev.redrive.triage.precondition.PreconditionResult;
import dev.redrive.triage.request.Submission;

import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What became of one item, in words an operator reads at a glance, sorted into the four piles the result page counts.
 *
 * @param newEntryId the DLQ entry a failed redrive left the operation in; null otherwise
 */
public record ItemResult(Kind kind, String text, Long newEntryId) {

    /** The result page's piles, in the order it counts them. */
    public enum Kind {
        SUCCEEDED, FAILED, BLOCKED, WAITING
    }

    /** What the decision call itself answered; a redrive then waits for the worker. */
    static ItemResult decided(DecisionResult result) {
        return switch (result.outcome()) {
            case DONE -> switch (result.kind()) {
                case REDRIVE -> waiting(result.newAttempt(), "issued");
                case RESOLVE -> new ItemResult(Kind.SUCCEEDED, "Resolved as succeeded by " + result.operator()
                        + ": it never runs again", null);
                case DISCARD -> new ItemResult(Kind.SUCCEEDED, "Discarded by " + result.operator()
                        + ": it never runs again", null);
                case CORRECT -> throw new IllegalArgumentException("a correction is told by corrected()");
            };
            case NOT_PUBLISHED -> new ItemResult(Kind.WAITING, "Redrive recorded, but its dispatch could not be published:"
                    + " a worker's sweep publishes attempt " + result.newAttempt(), null);
            case BLOCKED -> new ItemResult(Kind.BLOCKED, "Not " + past(result.kind()) + ": blocked by "
                    + (result.preconditions() == null ? result.message() : result.preconditions().failed().stream()
                    .map(PreconditionResult::found).collect(Collectors.joining(", "))), null);
            case ALREADY_DECIDED, REFUSED -> new ItemResult(Kind.BLOCKED, "Not " + past(result.kind()) + ": "
                    + result.message(), null);
            case WOULD_PASS -> throw new IllegalArgumentException("a dry run is not a decision");
        };
    }

    /** What the correction call answered; a recorded correction then waits for the worker to run its first attempt. */
    static ItemResult corrected(CorrectionResult result) {
        return switch (result.outcome()) {
            case DONE -> new ItemResult(Kind.WAITING, "Correction " + result.correctionId() + " issued: its attempt 1 "
                    + "(idempotency key " + result.idempotencyKey() + ") is waiting for a worker. " + result.operationId()
                    + " is superseded and never runs again.", null);
            case NOT_PUBLISHED -> new ItemResult(Kind.WAITING, "Correction " + result.correctionId() + " recorded, but "
                    + "its dispatch could not be published: a worker's sweep publishes it", null);
            case BLOCKED, ALREADY_DECIDED, REFUSED -> new ItemResult(Kind.BLOCKED, "Not corrected: " + result.message(),
                    null);
            case WOULD_PASS -> throw new IllegalArgumentException("a dry run is not a decision");
        };
    }

    /** The same result said of a correction: "Correction r:n:1: Succeeded: ...". */
    ItemResult ofCorrection(String correctionId) {
        return new ItemResult(kind, "Correction " + correctionId + ": " + text, newEntryId);
    }

    /**
     * The four-eyes policy covered the decision: recorded as a request that a second operator approves (then it is
     * taken as asked), or not recorded because it could not be taken anyway.
     */
    static ItemResult requested(DecisionKind kind, Submission submission) {
        if (!submission.recorded()) {
            return new ItemResult(Kind.BLOCKED, "Not " + past(kind) + ": " + submission.message(), null);
        }
        return new ItemResult(Kind.WAITING, "Waiting for a second operator's approval: request "
                + submission.request().id() + " (" + submission.request().coveredBy() + "); nothing is decided until "
                + "someone else approves it under Requests", null);
    }

    /** An item the chosen decision does not apply to, left as it is. */
    static ItemResult skipped(DecisionKind kind, String whyNot) {
        return new ItemResult(Kind.BLOCKED, "Not " + past(kind) + ": " + whyNot, null);
    }

    /** The decision call failed outright (the server went away): nothing is known to be recorded. */
    static ItemResult error(String message) {
        return new ItemResult(Kind.FAILED, "Could not decide: " + message, null);
    }

    /**
     * Where a redrive stands by the one verification {@code op show} and reports give: still waiting, run once (with the
     * tool's own count of its effects when it keeps one), or failed again and where to.
     */
    static ItemResult afterRun(OperationDetails details, Optional<RedriveVerification> verification, DecisionResult result) {
        if (verification.isEmpty()) {
            return new ItemResult(Kind.FAILED, "The redrive command " + result.commandId() + " is not in the store", null);
        }
        RedriveVerification verified = verification.get();
        int attempt = verified.toAttempt();
        String ranOnce = "attempt " + attempt + " ran once, with idempotency key " + verified.idempotencyKey();
        return switch (verified.verdict()) {
            case WAITING -> waiting(attempt, verified.commandStatus() == RedriveCommandStatus.EXECUTING ? "running" : "issued");
            case SUCCEEDED_ONCE -> new ItemResult(Kind.SUCCEEDED, "Succeeded: " + ranOnce + "; the tool counts one effect",
                    null);
            case SUCCEEDED_NOT_VERIFIABLE -> new ItemResult(Kind.SUCCEEDED, "Succeeded: " + ranOnce
                    + "; its effects are not verifiable for this tool", null);
            case NO_EFFECT -> new ItemResult(Kind.FAILED, "Attempt " + attempt + " succeeded, but the tool counts no effect"
                    + " for idempotency key " + verified.idempotencyKey(), null);
            case DUPLICATED -> new ItemResult(Kind.FAILED, "More than once: " + verified.explanation(), null);
            case FAILED -> failedAgain(details, attempt);
        };
    }

    private static ItemResult failedAgain(OperationDetails details, int attempt) {
        String why = details.attempts().stream().filter(a -> a.attempt() == attempt && !a.succeeded())
                .reduce((first, second) -> second).map(ItemResult::error).orElse("");
        Optional<DlqEntryRecord> entry = details.openEntry();
        return new ItemResult(Kind.FAILED, "Failed again: attempt " + attempt + why
                + entry.map(e -> "; the operation is back in the DLQ as entry " + e.id()).orElse(""),
                entry.map(DlqEntryRecord::id).orElse(null));
    }

    private static String error(AttemptRecord attempt) {
        return attempt.errorClass() == null ? "" : " ended " + attempt.errorClass()
                + (attempt.errorMessage() == null ? "" : " (" + attempt.errorMessage() + ")");
    }

    private static ItemResult waiting(int attempt, String state) {
        return new ItemResult(Kind.WAITING, "Redrive " + state + ": attempt " + attempt + " is "
                + ("running".equals(state) ? "running at a worker" : "waiting for a worker"), null);
    }

    private static String past(DecisionKind kind) {
        return switch (kind) {
            case REDRIVE -> "redriven";
            case RESOLVE -> "resolved";
            case DISCARD -> "discarded";
            case CORRECT -> "corrected";
        };
    }
}
