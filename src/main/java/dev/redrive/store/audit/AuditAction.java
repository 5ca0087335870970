package dev.redrive.store.audit;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Every action the audit log records. The stored names are those the first releases wrote, kept as they were: the log
 * is append-only, so rows already written are never renamed, and scripts and the wire contract read these names.
 */
public enum AuditAction {
    /** The worker acked a dispatch without running it (run ended, stale command, ...). */
    DISPATCH_DISCARDED("dispatch_discarded", false),
    RUN_CANCELLED("run_cancelled", false),
    APPROVAL_GRANTED("approval_granted", false),
    APPROVAL_REVOKED("approval_revoked", false),
    /** An operator recorded what a tool says about an operation's side effect. */
    RECONCILE("RECONCILE", true),
    REDRIVE("REDRIVE", true),
    /** A redrive command was recorded but its dispatch could not be published (a worker's sweep publishes it). */
    REDRIVE_NOT_PUBLISHED("REDRIVE_NOT_PUBLISHED", false),
    RESOLVE("RESOLVE", true),
    DISCARD("DISCARD", true),
    /** An operator replaced a dead-lettered operation by a correction, the node's next logical attempt. */
    CORRECT("CORRECT", true),
    /** A correction was recorded but its dispatch could not be published (a worker's sweep publishes it). */
    CORRECTION_NOT_PUBLISHED("CORRECTION_NOT_PUBLISHED", false),
    /** The namespace's four-eyes policy was switched on or off, or its coverage changed. */
    POLICY_CHANGED("POLICY_CHANGED", false),
    /** A decision the four-eyes policy covers was recorded as a request for a second operator's approval. */
    REQUEST_CREATED("REQUEST_CREATED", false),
    /** A second operator approved a request; the decision it asked for follows under the approver's login. */
    REQUEST_APPROVED("REQUEST_APPROVED", false),
    REQUEST_REJECTED("REQUEST_REJECTED", false),
    /** A request was found past its expiry when someone tried to approve or reject it. */
    REQUEST_EXPIRED("REQUEST_EXPIRED", false),
    /** A request was found with none of its items open any more (decided by another path) when someone acted on it. */
    REQUEST_OBSOLETE("REQUEST_OBSOLETE", false),
    /** The evidence of decided DLQ entries was purged (retention); one line per chunk, naming the purge. */
    EVIDENCE_PURGED("EVIDENCE_PURGED", false),
    /** A durable batch was stopped between chunks: by its own run (its operator, Ctrl-C) or asked from elsewhere. */
    BATCH_STOPPED("BATCH_STOPPED", false),
    /** A durable batch that had run before (stopped, failed, or left by a process that died) was taken up again. */
    BATCH_RESUMED("BATCH_RESUMED", false);

    private final String stored;
    private final boolean decision;

    AuditAction(String stored, boolean decision) {
        this.stored = stored;
        this.decision = decision;
    }

    /** The name in {@code audit_log.action}. */
    public String stored() {
        return stored;
    }

    /** Whether the action is an operator's decision about an operation (the others record how it was carried out). */
    public boolean isDecision() {
        return decision;
    }

    /** The stored names of the decisions. */
    public static Set<String> storedDecisions() {
        return Arrays.stream(values()).filter(AuditAction::isDecision).map(AuditAction::stored)
                .collect(Collectors.toUnmodifiableSet());
    }
}
