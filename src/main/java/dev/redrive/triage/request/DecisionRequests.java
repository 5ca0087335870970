package dev.redrive.triage.request;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.store.Database;
import dev.redrive.store.StoreException;
import dev.redrive.store.audit.AuditAction;
import dev.redrive.store.audit.AuditLine;
import dev.redrive.store.audit.AuditLine.AuditSubject;
import dev.redrive.triage.correction.CorrectionResult;
import dev.redrive.triage.correction.Corrections;
import dev.redrive.triage.decision.DecisionAccess;
import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.decision.DispatchPublisher;
import dev.redrive.triage.decision.batch.BatchDecisions;
import dev.redrive.triage.decision.batch.BatchListener;
import dev.redrive.triage.decision.batch.BatchOptions;
import dev.redrive.triage.decision.batch.BatchReport;
import dev.redrive.triage.decision.batch.Sleeper;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.precondition.PreconditionReport;
import dev.redrive.triage.precondition.PreconditionResult;
import dev.redrive.triage.query.DlqFilter;
import dev.redrive.triage.query.DlqQueries;
import dev.redrive.triage.query.JdbcDlqQueries;
import dev.redrive.triage.redaction.Redactor;

import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Four-eyes, for the CLI and the console: whether a decision waits for a second operator, the requests that wait, and
 * their approval or rejection. An approval re-checks every precondition and takes the decision with the same code as a
 * direct one ({@link Decisions}, {@link BatchDecisions}, {@link Corrections}) under the approver's name and login. For
 * one item the approval, the decision and the request's result are one transaction, so a blocked decision leaves the
 * request PENDING; a batch runs its chunks in transactions of their own after the approval committed. Of two operators
 * approving at once, the first holds the request's row and the second finds it decided: the decision is taken once.
 */
public final class DecisionRequests {
    private final Database database;
    private final RequestStore store;
    private final PolicyStore policies;
    private final DispatchPublisher publisher;
    private final Redactor redactor;
    private final Clock clock;
    private final Sleeper sleeper;

    public DecisionRequests(Database database, DispatchPublisher publisher, Redactor redactor, Clock clock,
                            Sleeper sleeper) {
        this.database = database;
        this.store = new RequestStore(database);
        this.policies = new PolicyStore(database);
        this.publisher = publisher;
        this.redactor = redactor;
        this.clock = clock;
        this.sleeper = sleeper;
    }

    public FourEyesPolicy policy() {
        return policies.read();
    }

    /**
     * Whether this decision would wait for a second operator's approval, and which rule of the policy says so; empty
     * when it would be taken at once. Dry runs never wait: they write nothing.
     */
    public Optional<String> wouldWait(RequestKind kind, List<DecisionTarget> targets) {
        FourEyesPolicy policy = policies.read();
        if (!policy.enabled() || targets.isEmpty()) {
            return Optional.empty();
        }
        return policy.covers(kind, targets.size(), store.tools(targets));
    }

    /**
     * Whether the policy would cover a decision on every entry a filter matches, told without listing them: by how
     * many there are and the tools they name. An entry without an operation of its own is counted too, so the answer
     * errs toward asking for approval.
     */
    public Optional<String> wouldWait(RequestKind kind, DlqFilter entries, DlqQueries queries) {
        FourEyesPolicy policy = policies.read();
        if (!policy.enabled()) {
            return Optional.empty();
        }
        long items = queries.exactCount(entries);
        return items == 0 ? Optional.empty()
                : policy.covers(kind, (int) Math.min(Integer.MAX_VALUE, items), queries.tools(entries));
    }

    /**
     * Records the decision as a request when the policy covers it; empty when it does not (take it directly). A decision
     * on one item is checked first: one that could not be taken anyway is not recorded, and the submission says why.
     *
     * @param selection how the operator named the items, for people; null = "operation ID", "entry N" or "N items"
     */
    public Optional<Submission> submitIfCovered(RequestKind kind, List<DecisionTarget> targets, String selection,
                                                RequestOptions options, String operator, String reason) {
        requireText(operator, "a decision needs the operator's name");
        requireText(reason, "a decision needs a reason");
        Optional<String> coveredBy = wouldWait(kind, targets);
        if (coveredBy.isEmpty()) {
            return Optional.empty();
        }
        if (targets.size() == 1) {
            Optional<Submission> blocked = blockedNow(kind, targets.get(0), options);
            if (blocked.isPresent()) {
                return blocked;
            }
        }
        FourEyesPolicy policy = policies.read();
        Instant at = clock.instant();
        String named = selection != null ? selection : targets.size() == 1 ? subject(targets.get(0))
                : targets.size() + " items";
        DecisionRequest request = store.jdbc().inTransaction(() -> {
            long id = store.insert(kind, targets, named, options, reason, coveredBy.get(), operator, at,
                    at.plus(policy.expireAfter()));
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("request_id", id);
            details.put("kind", kind.name());
            details.put("selection", named);
            details.put("items", targets.size());
            details.put("covered_by", coveredBy.get());
            store.audit(new AuditLine(at, operator, AuditAction.REQUEST_CREATED, subjectOf(targets), reason, details));
            return store.find(id, at).orElseThrow();
        });
        return Optional.of(new Submission(request, DecisionOutcome.DONE, "request " + request.id()
                + " waits for a second operator's approval (" + coveredBy.get() + "): " + request.summary()
                + ", expires " + request.expiresAt(), List.of()));
    }

    /** The requests waiting for approval, oldest first (expired ones are not among them). */
    public List<DecisionRequest> pending() {
        return store.pending(clock.instant());
    }

    public long countPending() {
        return store.countPending(clock.instant());
    }

    /** The newest requests in any state, newest first. */
    public List<DecisionRequest> newest(int limit) {
        return store.newest(clock.instant(), limit);
    }

    public Optional<DecisionRequest> find(long id) {
        return store.find(id, clock.instant());
    }

    /**
     * Approves a request and takes its decision. The database refuses the login that asked for it (for the schema owner,
     * which everyone shares in the sandbox, the typed name that asked) and a viewer.
     */
    public ApprovalResult approve(long id, String approver) {
        requireText(approver, "an approval needs the approver's name");
        DecisionRequest request = known(id);
        try {
            return request.targets().size() == 1 ? approveInOneTransaction(request, approver)
                    : approveBatch(request, approver);
        } catch (StoreException e) {
            return refused(id, e);
        }
    }

    /** Rejects a request: its decision is never taken. The one who asked may withdraw her own request so. */
    public ApprovalResult reject(long id, String operator, String reason) {
        requireText(operator, "a rejection needs the operator's name");
        requireText(reason, "a rejection needs a reason");
        DecisionRequest request = known(id);
        Instant at = clock.instant();
        try {
            return store.jdbc().inTransaction(() -> {
                Optional<ApprovalResult> settled = settled(request.id(), at);
                if (settled.isPresent()) {
                    return settled.get();
                }
                store.reject(request.id(), operator, reason, at);
                Map<String, Object> details = requestDetails(request);
                details.put("rejected_by", operator);
                store.audit(new AuditLine(at, operator, AuditAction.REQUEST_REJECTED, subjectOf(request.targets()),
                        reason, details));
                return ApprovalResult.of(request.id(), DecisionOutcome.DONE, "request " + request.id()
                        + " rejected by " + operator + ": " + request.summary() + " will not be taken");
            });
        } catch (StoreException e) {
            return refused(id, e);
        }
    }

    // Approval -----------------------------------------------------------------------------------------------------

    /** The decision was not taken: the approval is rolled back with it and the request stays PENDING. */
    private static final class NotTaken extends RuntimeException {
        private final ApprovalResult result;

        NotTaken(ApprovalResult result) {
            super(result.message(), null, false, false);
            this.result = result;
        }
    }

    private ApprovalResult approveInOneTransaction(DecisionRequest request, String approver) {
        DeferredPublisher deferred = new DeferredPublisher();
        Instant at = clock.instant();
        ApprovalResult taken;
        try {
            taken = store.jdbc().inTransaction(() -> {
                Optional<ApprovalResult> settled = claim(request, approver, at);
                if (settled.isPresent()) {
                    return settled.get();
                }
                ApprovalResult result = take(request, approver, deferred);
                if (result.outcomes().stream().noneMatch(DecisionOutcome::recorded)) {
                    throw new NotTaken(result);
                }
                store.recordResult(request.id(), resultJson(result));
                return result;
            });
        } catch (NotTaken e) {
            return e.result.withMessage("request " + request.id() + " stays pending: " + e.result.message());
        }
        return publish(request, taken, deferred, approver);
    }

    private ApprovalResult approveBatch(DecisionRequest request, String approver) {
        Instant at = clock.instant();
        Optional<ApprovalResult> settled = store.jdbc().inTransaction(() -> claim(request, approver, at));
        if (settled.isPresent()) {
            return settled.get();
        }
        ApprovalResult taken = take(request, approver, publisher);
        store.jdbc().inTransaction(() -> store.recordResult(request.id(), resultJson(taken)));
        return taken;
    }

    /**
     * Holds the request's row and approves it, with an audit line naming who asked and who approves; or says why not
     * (decided meanwhile; expired, which is recorded).
     */
    private Optional<ApprovalResult> claim(DecisionRequest request, String approver, Instant at) {
        Optional<ApprovalResult> settled = settled(request.id(), at);
        if (settled.isPresent()) {
            return settled;
        }
        if (!store.approve(request.id(), approver, at)) {
            throw new IllegalStateException("request " + request.id() + " changed while its row was held");
        }
        Map<String, Object> details = requestDetails(request);
        details.put("approved_by", approver);
        store.audit(new AuditLine(at, approver, AuditAction.REQUEST_APPROVED, subjectOf(request.targets()),
                request.reason(), details));
        return Optional.empty();
    }

    /**
     * With the request's row held: why it can no longer be decided (recording its expiry, or that another path decided
     * its items), or empty when it can.
     */
    private Optional<ApprovalResult> settled(long id, Instant at) {
        store.lock(id);
        DecisionRequest now = store.find(id, at).orElseThrow();
        return switch (now.state()) {
            case PENDING -> Optional.empty();
            case EXPIRED -> {
                if (store.expire(id, at)) {
                    store.audit(new AuditLine(at, "four-eyes", AuditAction.REQUEST_EXPIRED, subjectOf(now.targets()),
                            null, requestDetails(now)));
                }
                yield Optional.of(ApprovalResult.of(id, DecisionOutcome.BLOCKED, "request " + id + " expired at "
                        + now.expiresAt() + ": it can no longer be approved; ask for the decision again"));
            }
            case OBSOLETE -> {
                if (store.obsolete(id, at)) {
                    store.audit(new AuditLine(at, "four-eyes", AuditAction.REQUEST_OBSOLETE, subjectOf(now.targets()),
                            null, requestDetails(now)));
                }
                yield Optional.of(ApprovalResult.of(id, DecisionOutcome.ALREADY_DECIDED, "request " + id
                        + " is obsolete: none of its items is open any more (another path decided them meanwhile), "
                        + "so there is nothing left to approve or reject"));
            }
            case APPROVED, REJECTED -> Optional.of(ApprovalResult.of(id, DecisionOutcome.ALREADY_DECIDED, "request "
                    + id + " was already " + now.state().name().toLowerCase(Locale.ROOT) + " by "
                    + now.decidedBy() + " (login " + now.decidedLogin() + ") at " + now.decidedAt()));
        };
    }

    /** Takes the request's decision with the code a direct decision uses, as the approver. */
    private ApprovalResult take(DecisionRequest request, String approver, DispatchPublisher through) {
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

    /**
     * Publishes the dispatches held during the approval's transaction, now that it committed. When that fails the
     * decisions stay recorded, each is NOT_PUBLISHED with an audit line, and a running worker's sweep publishes them.
     */
    private ApprovalResult publish(DecisionRequest request, ApprovalResult taken, DeferredPublisher deferred,
                                   String approver) {
        List<DispatchEnvelope> held = deferred.held();
        if (held.isEmpty()) {
            return taken;
        }
        try {
            publisher.publishAll(held);
            return taken;
        } catch (RuntimeException e) {
            String error = Objects.toString(e.getMessage(), e.getClass().getName());
            Instant at = clock.instant();
            AuditAction action = request.kind() == RequestKind.CORRECT ? AuditAction.CORRECTION_NOT_PUBLISHED
                    : AuditAction.REDRIVE_NOT_PUBLISHED;
            store.jdbc().inTransaction(() -> held.forEach(envelope -> store.audit(new AuditLine(at, approver, action,
                    new AuditSubject(envelope.operationId().value(), null, commandId(envelope)), request.reason(),
                    Map.of("error", error, "request_id", request.id())))));
            return new ApprovalResult(request.id(), DecisionOutcome.NOT_PUBLISHED, taken.message() + ", but its "
                    + "dispatch was not published (" + error + "); a running worker's sweep re-publishes the PENDING "
                    + "operation after its grace period", taken.items(), taken.correction());
        }
    }

    private static UUID commandId(DispatchEnvelope envelope) {
        return envelope.redriveCommandId() == null ? null : UUID.fromString(envelope.redriveCommandId());
    }

    // Shared -------------------------------------------------------------------------------------------------------

    /** A decision on one item that could not be taken now is not worth a request: what its dry run says. */
    private Optional<Submission> blockedNow(RequestKind kind, DecisionTarget target, RequestOptions options) {
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

    private DecisionRequest known(long id) {
        return store.find(id, clock.instant()).orElseThrow(() -> new IllegalArgumentException(
                "no decision request " + id + "; expected an id that request list shows"));
    }

    private ApprovalResult refused(long id, StoreException e) {
        if (!e.isRefused()) {
            throw e;
        }
        String said = Objects.toString(e.getMessage(), "permission denied").lines().findFirst().orElse("");
        DecisionAccess access = DecisionAccess.of(database);
        return ApprovalResult.of(id, DecisionOutcome.REFUSED, "refused by the database: "
                + (access.canDecide() ? said : access.readOnlyReason() + ": " + said));
    }

    private static Map<String, Object> requestDetails(DecisionRequest request) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("request_id", request.id());
        details.put("kind", request.kind().name());
        details.put("selection", request.selection());
        details.put("items", request.targets().size());
        details.put("requested_by", request.requestedBy());
        details.put("requested_login", request.requestedLogin());
        return details;
    }

    /** One item's operation and entry; a batch is about many, named in the details. */
    private static AuditSubject subjectOf(List<DecisionTarget> targets) {
        if (targets.size() != 1) {
            return AuditSubject.NONE;
        }
        return new AuditSubject(targets.get(0).operationId(), targets.get(0).dlqEntryId(), null);
    }

    private static String subject(DecisionTarget target) {
        return target.operationId() != null ? "operation " + target.operationId() : "entry " + target.dlqEntryId();
    }

    private static JsonNode resultJson(ApprovalResult result) {
        ObjectNode json = TriageJson.mapper().createObjectNode();
        json.put("outcome", result.outcome().name());
        json.put("message", result.message());
        if (result.correction() != null) {
            json.put("corrected_by", result.correction().correctionId());
        }
        ArrayNode items = json.putArray("items");
        for (DecisionResult item : result.items()) {
            ObjectNode line = items.addObject();
            line.put("subject", item.subject());
            line.put("outcome", item.outcome().name());
            line.put("message", item.message());
            if (item.commandId() != null) {
                line.put("command_id", item.commandId().toString());
            }
        }
        return json;
    }

    private static void requireText(String value, String message) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(message);
        }
    }
}
