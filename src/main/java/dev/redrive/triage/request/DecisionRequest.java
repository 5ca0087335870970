package dev.redrive.triage.request;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.triage.precondition.DecisionTarget;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A decision that waits for a second operator: everything needed to take it exactly as it was asked for, who asked
 * (the typed name and the login the database stamped), and what became of it.
 *
 * @param selection how the requester named the items, for people ("operation r:n:0", "group fp-1")
 * @param coveredBy the rule of the policy that made it a request
 * @param state     as of when it was read: a PENDING request past its expiry reads EXPIRED, one none of whose
 *                  items is open any more OBSOLETE
 * @param result    what came of the approved decision; null until it was taken
 */
public record DecisionRequest(long id, RequestKind kind, List<DecisionTarget> targets, String selection,
                              RequestOptions options, String reason, String coveredBy, String requestedBy,
                              String requestedLogin, Instant requestedAt, Instant expiresAt, RequestState state,
                              String decidedBy, String decidedLogin, Instant decidedAt, String rejectReason,
                              JsonNode result) {
    public DecisionRequest {
        targets = List.copyOf(targets);
    }

    public boolean pending() {
        return state == RequestState.PENDING;
    }

    /** "redrive of operation r:n:0" or "discard of 12 items (group fp-1)". */
    public String summary() {
        String what = kind.name().toLowerCase(Locale.ROOT);
        return (kind == RequestKind.CORRECT ? "correct-and-redrive" : what) + " of " + selection;
    }

    /** The request as each audit line about it names it; a line adds what it is about. */
    Map<String, Object> auditDetails() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("request_id", id);
        details.put("kind", kind.name());
        details.put("selection", selection);
        details.put("items", targets.size());
        details.put("requested_by", requestedBy);
        details.put("requested_login", requestedLogin);
        return details;
    }
}
