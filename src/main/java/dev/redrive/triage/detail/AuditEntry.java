package dev.redrive.triage.detail;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;
import java.util.UUID;

/**
 * One line of the append-only audit log: who did what, when and why.
 *
 * @param actor the name given by the operator (or "worker"), a display name
 * @param login the database login that wrote the line, stamped by the database itself; null on lines written before
 *              logins were recorded
 */
public record AuditEntry(
        long id,
        Instant at,
        String actor,
        String login,
        String action,
        String operationId,
        Long dlqEntryId,
        UUID commandId,
        String reason,
        JsonNode details) {

    /** The actor, with the login that acted when the two differ: {@code bob (login alice)}. */
    public String who() {
        return login == null || login.equals(actor) ? actor : actor + " (login " + login + ")";
    }
}
