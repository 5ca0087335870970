package dev.redrive.worker.protocol;

import dev.redrive.envelope.InvalidEnvelopeException;

/** The error codes of messages the worker dead-letters as themselves, without running them (all INVALID_INPUT). */
final class DeadLetterCodes {
    /** The operation id or idempotency key is recorded with other parameters. */
    static final String IDEMPOTENCY_CONFLICT = "idempotency_conflict";
    /** Valid by the wire contract, but the operation store refused one of its values. */
    static final String UNSTORABLE_PAYLOAD = InvalidEnvelopeException.UNSTORABLE_PAYLOAD;
    /** The dispatch names a redrive command that was never issued for its operation. */
    static final String UNKNOWN_REDRIVE_COMMAND = "unknown_redrive_command";

    private DeadLetterCodes() {
    }
}
