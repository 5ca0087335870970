package dev.redrive.worker.client;

/**
 * A dispatch named an operation id (or an idempotency key) that is already recorded with other parameters. Nothing was
 * recorded or published; the message names both parameter hashes, or the operation that holds the key.
 */
public final class IdempotencyConflictException extends RuntimeException {
    public IdempotencyConflictException(String message) {
        super(message);
    }
}
