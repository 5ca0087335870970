package dev.redrive.triage.request;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.store.Database;
import dev.redrive.store.StoreException;
import dev.redrive.store.audit.AuditAction;
import dev.redrive.store.audit.AuditLine;
import dev.redrive.store.audit.AuditLine.AuditSubject;
import dev.redrive.triage.decision.DecisionAccess;
import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.decision.DispatchPublisher;
import dev.redrive.triage.decision.batch.Sleeper;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.query.DlqFilter;
import dev.redrive.triage.query.DlqQueries;
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
 * direct one ({@link RequestedDecisions}) under the approver's name and login. For
 * one item the approval, the decision and the request's result are one transaction, so a blocked decision leaves the
 * request PENDING; a batch runs its chunks in transactions of their own after the approval committed. Of two operators
 * approving at once, the first holds the request's row and the second finds it decided: the decision is taken once.
 */
public final class DecisionRequests {
    private final Database database;
    private final RequestStore store;
    private final PolicyStore policies;
    private final DispatchPublisher publisher;
    private final RequestedDecisions requested;
    private final Clock clock;

    public DecisionRequests(Database database, DispatchPublisher publisher, Redactor redactor, Clock clock,
                            Sleeper sleeper) {
        this.database = database;
        this.store = new RequestStore(database);
        this.policies = new PolicyStore(database);
        this.publisher = publisher;
        this.requested = new RequestedDecisions(database, publisher, redactor, clock, sleeper);
        this.clock = clock;
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
            Optional<Submission> blocked = requested.blockedNow(kind, targets.get(0), options);
            if (blocked.isPresent()) {
                return blocked;
            }
        }
        FourEyesPolicy policy = policies.read();
        Instant at = clock.instant();
        String named = selection != null ? selection : targets.size() == 1 ? subject(targets.get(0))
                : targets.size() + " items";
        Recorded recorded = store.jdbc().inTransaction(() -> {
            Optional<DecisionRequest> same = store.sameWaiting(kind, targets, options, at);
            if (same.isPresent()) {
                return new Recorded(same.get(), false);
            }
            long id = store.insert(kind, targets, named, options, reason, coveredBy.get(), operator, at,
                    at.plus(policy.expireAfter()));
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("request_id", id);
            details.put("kind", kind.name());
            details.put("selection", named);
            details.put("items", targets.size());
            details.put("covered_by", coveredBy.get());
            store.audit(new AuditLine(at, operator, AuditAction.REQUEST_CREATED, subjectOf(targets), reason, details));
            return new Recorded(store.find(id, at).orElseThrow(), true);
        });
        DecisionRequest request = recorded.request();
        // Asked again: the request recorded first stands, once; a script that repeats itself is answered the same way.
        String waits = recorded.created() ? " waits for a second operator's approval (" + coveredBy.get() + "): "
                : " already waits for a second operator's approval of this decision (asked by " + request.requestedBy()
                + " at " + request.requestedAt() + "): ";
        return Optional.of(new Submission(request, DecisionOutcome.DONE, "request " + request.id() + waits
                + request.summary() + ", expires " + request.expiresAt(), List.of()));
    }

    /** A request and whether this submission recorded it (false: the same decision was waiting already). */
    private record Recorded(DecisionRequest request, boolean created) {
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
                Map<String, Object> details = request.auditDetails();
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
                ApprovalResult result = requested.take(request, approver, deferred);
                if (result.outcomes().stream().noneMatch(DecisionOutcome::recorded)) {
                    throw new NotTaken(result);
                }
                store.recordResult(request.id(), result.toJson());
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
        ApprovalResult taken = requested.take(request, approver, publisher);
        store.jdbc().inTransaction(() -> store.recordResult(request.id(), taken.toJson()));
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
        Map<String, Object> details = request.auditDetails();
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
                            null, now.auditDetails()));
                }
                yield Optional.of(ApprovalResult.of(id, DecisionOutcome.BLOCKED, "request " + id + " expired at "
                        + now.expiresAt() + ": it can no longer be approved; ask for the decision again"));
            }
            case OBSOLETE -> {
                if (store.obsolete(id, at)) {
                    store.audit(new AuditLine(at, "four-eyes", AuditAction.REQUEST_OBSOLETE, subjectOf(now.targets()),
                            null, now.auditDetails()));
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

    private DecisionRequest known(long id) {
        return store.find(id, clock.instant()).orElseThrow(() -> new IllegalArgumentException(
                "no decision request " + id + "; expected an id that request list shows"));
    }

    private ApprovalResult refused(long id, StoreException e) {
        if (!e.isRefused()) {
            throw e;
        }
        return ApprovalResult.of(id, DecisionOutcome.REFUSED, "refused by the database: "
                + DecisionAccess.whyRefused(database, e));
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

    private static void requireText(String value, String message) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(message);
        }
    }
}
