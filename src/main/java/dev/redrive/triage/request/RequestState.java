package dev.redrive.triage.request;

import java.util.Set;

/**
 * Where a decision request stands. It leaves PENDING once, and only the states listed as reachable from it; the
 * database's guard (V170, V220; V230 adds OBSOLETE) refuses any other change.
 */
public enum RequestState {
    PENDING,
    /** A second operator approved it; the decision was taken (its result says how it went). */
    APPROVED,
    REJECTED,
    /** Nobody decided it before its expiry: it can no longer be approved. */
    EXPIRED,
    /** None of its items is open any more: another path (a direct decision, another request) decided them. */
    OBSOLETE;

    /** Whether a request in this state may move to {@code next}. */
    public boolean mayBecome(RequestState next) {
        return this == PENDING && Set.of(APPROVED, REJECTED, EXPIRED, OBSOLETE).contains(next);
    }
}
