package dev.redrive.envelope;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * What makes two dispatches of one operation the same request: the tool, the idempotency key and the payload (as a
 * JSON value). A second dispatch of an operation id with other parameters is a conflict, never a silent replay of the
 * first one's result. The tool schema version is compared on its own, because a redrive may move it on.
 */
public final class OperationParameters {
    private OperationParameters() {
    }

    /**
     * Hex SHA-256 of {@code tool + "\n" + idempotency_key + "\n" + canonical payload}, the payload canonical as in
     * {@link JsonPayload#canonical()}.
     */
    public static String hash(String tool, String idempotencyKey, String payload) {
        String canonical = JsonPayload.parseRecorded(payload).canonical();
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest((tool + "\n" + idempotencyKey + "\n" + canonical).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    public static String hash(DispatchEnvelope envelope) {
        return hash(envelope.tool(), envelope.idempotencyKey(), envelope.payload());
    }

    /**
     * One line naming what differs between a dispatch and the operation recorded under its id, or null when the
     * dispatch asks for the same thing.
     *
     * @param compareSchemaVersion whether the schema versions must be equal too (they need not for a dispatch of an
     *                             older attempt, sent before a redrive moved the operation to another version)
     */
    public static String conflict(DispatchEnvelope envelope, String tool, String idempotencyKey, String payload,
                                  String schemaVersion, boolean compareSchemaVersion) {
        String recorded = hash(tool, idempotencyKey, payload);
        String given = hash(envelope);
        if (!recorded.equals(given)) {
            return "operation " + envelope.operationId() + " was recorded with parameters " + recorded
                    + ", this dispatch carries " + given + " (tool, idempotency key or payload differ)";
        }
        if (compareSchemaVersion && !schemaVersion.equals(envelope.toolSchemaVersion())) {
            return "operation " + envelope.operationId() + " is recorded at tool schema version " + schemaVersion
                    + ", this dispatch carries version " + envelope.toolSchemaVersion();
        }
        return null;
    }
}
