package dev.redrive.triage.request;

import dev.redrive.store.Database;
import dev.redrive.triage.correction.CorrectionResult;
import dev.redrive.triage.correction.Corrections;
import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.decision.DispatchPublisher;
import dev.redrive.triage.decision.batch.BatchDecisions;
import dev.redrive.triage.decision.batch.BatchListener;
import dev.redrive.triage.decision.batch.BatchOptions;
import dev.redrive.triage.decision.batch.BatchReport;
import dev.redrive.triage.decision.batch.Sleeper;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.precondition.PreconditionReport;
import dev.redrive.triage.precondition.PreconditionResult;
import dev.redrive.triage.query.JdbcDlqQueries;
import dev.redrive.triage.redaction.Redactor;

import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * A request's decision, checked or taken with the code a direct decision uses ({@link Decisions},
 * {@link BatchDecisions}, {@link Corrections}): never a second implementation of one.
 */
final class RequestedDecisions {
    private final Database database;
    private final DispatchPublisher publisher;
    private final Redactor redactor;
    private final Clock clock;
    private final Sleeper sleeper;

    RequestedDecisions(Database database, DispatchPublisher publisher, Redactor redactor, Clock clock, Sleeper sleeper) {
        this.database = database;
        this.publisher = publisher;
        this.redactor = redactor;
        this.clock = clock;
        this.sleeper = sleeper;
    }

    /** Takes the request's decision with the code a direct decision uses, as the approver. */
    ApprovalResult take(DecisionRequest request, String approver, DispatchPublisher through) {
        String reason = request.reason() + " (request " + request.id() + " by " + request.requestedBy() + ")";
        RequestOptions options = request.options();
        Decisions decisions = new Decisions(database, through, clock);
        if (request.kind() == RequestKind.CORRECT) {
            CorrectionResult corrected = new Corrections(database, through, redactor, clock).correct(
                    request.targets().get(0).withSchemaVersion(options.schemaVersion()), options.payload(), approver,
                    reason);
            return new ApprovalResult(request.id(), corrected.outcome(), corrected.message(), List.of(), corrected);
        }
        if (request.targets().size() == 1) {
            DecisionTarget target = request.targets().get(0);
            DecisionResult decided = switch (request.kind()) {
                case REDRIVE -> decisions.redrive(target.withSchemaVersion(options.schemaVersion()), approver, reason);
                case RESOLVE -> decisions.resolve(target, options.result(), approver, reason);
                case DISCARD -> decisions.discard(target, approver, reason);
                case CORRECT -> throw new IllegalStateException("a correction is taken above");
            };
            return new ApprovalResult(request.id(), decided.outcome(), decided.message(), List.of(decided), null);
        }
        BatchDecisions batch = new BatchDecisions(decisions, new JdbcDlqQueries(database), clock, sleeper);
        BatchOptions batchOptions = new BatchOptions(approver, reason, options.schemaVersion(), options.itemsPerSecond(),
                false);
        BatchReport report = switch (request.kind()) {
            case REDRIVE -> batch.redrive(request.targets(), batchOptions, BatchListener.NONE);
            case RESOLVE -> batch.resolve(request.targets(), options.result(), batchOptions, BatchListener.NONE);
            case DISCARD -> batch.discard(request.targets(), batchOptions, BatchListener.NONE);
            case CORRECT -> throw new IllegalStateException("a correction takes one item");
        };
        return new ApprovalResult(request.id(), DecisionOutcome.DONE, "request " + request.id() + " approved by "
                + approver + ": " + report.summary(), report.items(), null);
    }


    /** A decision on one item that could not be taken now is not worth a request: what its dry run says. */
    Optional<Submission> blockedNow(RequestKind kind, DecisionTarget target, RequestOptions options) {
        Decisions decisions = new Decisions(database, publisher, clock);
        DecisionTarget chosen = target.withSchemaVersion(options.schemaVersion());
        DecisionOutcome outcome;
        String message;
        PreconditionReport report;
        if (kind == RequestKind.CORRECT) {
            CorrectionResult check = new Corrections(database, publisher, redactor, clock).check(chosen, options.payload());
            outcome = check.outcome();
            message = check.message();
            report = check.preconditions();
        } else {
            DecisionResult check = switch (kind) {
                case REDRIVE -> decisions.checkRedrive(chosen);
                case RESOLVE -> decisions.checkResolve(target, options.result());
                case DISCARD -> decisions.checkDiscard(target);
                case CORRECT -> throw new IllegalStateException("checked above");
            };
            outcome = check.outcome();
            message = check.message();
            report = check.preconditions();
        }
        if (outcome == DecisionOutcome.WOULD_PASS) {
            return Optional.empty();
        }
        List<PreconditionResult> failed = report == null ? List.of() : report.failed();
        return Optional.of(new Submission(null, outcome, message + " (no request recorded)", failed));
    }
}
