package dev.redrive.store.approval;

import dev.redrive.store.Jdbc;
import dev.redrive.store.audit.AuditAction;
import dev.redrive.store.audit.AuditLine.AuditSubject;
import dev.redrive.store.audit.AuditLine;
import dev.redrive.store.audit.AuditLog;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Approvals that dispatches may name ({@code approval_id}); redrive precondition 3 checks that the one an operation
 * needs is neither revoked nor expired. Grants and revocations are audited.
 */
public final class ApprovalStore {
    private static final String GRANT = """
            INSERT INTO approvals (approval_id, scope, granted_by, granted_at, expires_at)
            VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (approval_id) DO NOTHING
            """;

    private static final String REVOKE = """
            UPDATE approvals SET revoked_at = ?, revoked_by = ?, revoke_reason = ?
             WHERE approval_id = ? AND revoked_at IS NULL
            """;

    private static final String EXISTS = "SELECT count(*) FROM approvals WHERE approval_id = ?";

    private final Jdbc jdbc;
    private final AuditLog audit;

    public ApprovalStore(Jdbc jdbc) {
        this.jdbc = jdbc;
        this.audit = new AuditLog(jdbc);
    }

    /** Grants a new approval; an id that already exists is refused (revoked approvals are not re-granted). */
    public void grant(String approvalId, String scope, String grantedBy, Instant expiresAt, Instant now) {
        if (expiresAt != null && !expiresAt.isAfter(now)) {
            throw new IllegalArgumentException("approval " + approvalId + " would expire at " + expiresAt
                    + ", which is not in the future");
        }
        jdbc.inTransaction(() -> {
            if (jdbc.update(GRANT, approvalId, scope, grantedBy, now, expiresAt) == 0) {
                throw new IllegalArgumentException("approval " + approvalId + " already exists");
            }
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("approval_id", approvalId);
            details.put("scope", scope);
            details.put("expires_at", expiresAt == null ? null : expiresAt.toString());
            audit.append(new AuditLine(now, grantedBy, AuditAction.APPROVAL_GRANTED, AuditSubject.NONE, null, details));
        });
    }

    /** Revokes an approval; an unknown or already revoked one is refused with a message that says which. */
    public void revoke(String approvalId, String revokedBy, String reason, Instant now) {
        jdbc.inTransaction(() -> {
            if (jdbc.update(REVOKE, now, revokedBy, reason, approvalId) == 0) {
                boolean known = jdbc.queryLong(EXISTS, approvalId) > 0;
                throw new IllegalArgumentException(known ? "approval " + approvalId + " is already revoked"
                        : "approval " + approvalId + " is not known");
            }
            audit.append(new AuditLine(now, revokedBy, AuditAction.APPROVAL_REVOKED, AuditSubject.NONE, reason,
                    Map.of("approval_id", approvalId)));
        });
    }
}
