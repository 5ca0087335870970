package dev.redrive.store.audit;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * One line to append to the audit log: who did what, when, to what and why.
 *
 * @param actor   the name given by the operator, or {@code worker}; the database stamps the login itself
 * @param subject what the action was about
 * @param details written as a JSON object with the project's conventions (snake_case, ISO-8601 instants)
 */
public record AuditLine(Instant at, String actor, AuditAction action, AuditSubject subject, String reason,
                        Map<String, ?> details) {
    public AuditLine {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(subject, "subject");
        details = details == null ? Map.of() : details;
    }

    /**
     * What an audit line is about; every part may be null.
     *
     * @param dlqEntryId the DLQ entry decided, when there is one
     * @param commandId  the redrive command issued or carried
     */
    public record AuditSubject(String operationId, Long dlqEntryId, UUID commandId) {
        public static final AuditSubject NONE = new AuditSubject(null, null, null);

        public static AuditSubject operation(String operationId) {
            return new AuditSubject(operationId, null, null);
        }
    }
}
