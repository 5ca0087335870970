package dev.redrive.triage.detail;

import java.time.Instant;

/** A human or policy approval that an operation needs to run. */
public record ApprovalRecord(
        String approvalId,
        String scope,
        String grantedBy,
        Instant grantedAt,
        Instant expiresAt,
        Instant revokedAt,
        String revokedBy,
        String revokeReason) {

    /** Valid at {@code now}: not revoked and not expired. */
    public boolean isValidAt(Instant now) {
        return revokedAt == null && (expiresAt == null || now.isBefore(expiresAt));
    }
}
