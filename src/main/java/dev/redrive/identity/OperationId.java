package dev.redrive.identity;

import dev.redrive.secret.QuotedInput;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * The stable business identity of one (run, node, logical attempt): {@code run_id:node_id:logical_attempt}. Retries
 * and redrives keep it; only a deliberate re-run decided by the runtime (a new logical attempt) changes it.
 */
public record OperationId(String runId, String nodeId, int logicalAttempt) {

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,128}");

    public OperationId {
        requireId("run_id", runId);
        requireId("node_id", nodeId);
        if (logicalAttempt < 0) {
            throw new InvalidIdException("logical_attempt must be 0 or more, got " + logicalAttempt);
        }
    }

    /** Parses {@code run:node:attempt}; the message of the exception names what is wrong. */
    public static OperationId parse(String text) {
        if (text == null) {
            throw new InvalidIdException("operation_id is missing");
        }
        String[] parts = text.split(":", -1);
        if (parts.length != 3) {
            throw new InvalidIdException("operation_id must be run_id:node_id:logical_attempt, got " + QuotedInput.of(text));
        }
        return new OperationId(parts[0], parts[1], parseLogicalAttempt(parts[2]));
    }

    public static int parseLogicalAttempt(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new InvalidIdException("logical_attempt must be a whole number, got " + QuotedInput.of(text));
        }
    }

    public static void requireId(String field, String value) {
        if (value == null || !ID.matcher(value).matches()) {
            throw new InvalidIdException(field + " must match [A-Za-z0-9._-]{1,128}, got " + QuotedInput.of(value));
        }
    }

    public static boolean isValidId(String value) {
        return value != null && ID.matcher(value).matches();
    }

    /**
     * The idempotency key handed to the tool on every attempt of this operation: derived once, from the operation id
     * only, so a retry or a redrive can never mint a new one.
     */
    public String idempotencyKey() {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(value().getBytes(StandardCharsets.UTF_8));
            return "op-" + HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    public String value() {
        return runId + ":" + nodeId + ":" + logicalAttempt;
    }

    @Override
    public String toString() {
        return value();
    }
}
