package dev.redrive.worker.protocol;

import dev.redrive.envelope.InvalidEnvelopeException;

/**
 * The error codes of messages the worker dead-letters as themselves, without running them (all INVALID_INPUT), besides
 * the codes of the wire contract's rules ({@link InvalidEnvelopeException}).
 */
final class DeadLetterCodes {
    /** The operation id or idempotency key is recorded with other parameters. */
    static final String IDEMPOTENCY_CONFLICT = "idempotency_conflict";
    /** Valid by the wire contract, but the operation store refused one of its values. */
    static final String UNSTORABLE_PAYLOAD = InvalidEnvelopeException.UNSTORABLE_PAYLOAD;
    /** The dispatch names a redrive command that was never issued for its operation. */
    static final String UNKNOWN_REDRIVE_COMMAND = "unknown_redrive_command";
    /** The payload holds a number no decimal can hold (an exponent past 32 bits). */
    static final String UNREADABLE_NUMBER = InvalidEnvelopeException.UNREADABLE_NUMBER;
    /** The payload nests deeper than the parser goes, or handling the message overflowed the stack. */
    static final String NESTING_TOO_DEEP = InvalidEnvelopeException.NESTING_TOO_DEEP;
    /** Handling the message failed in a way nobody foresaw; the message names the exception. */
    static final String UNDECODABLE_MESSAGE = "undecodable_message";
    /**
     * The message failed as many deliveries as the delivery limit without being settled: an operation its handler
     * never settled, or a message the store failed on, alone, every time it was recorded or claimed.
     */
    static final String DELIVERY_LIMIT = "delivery_limit";
    /** No worker announced the dispatch's tool for the unserved-tool grace (earlier versions said unknown_tool). */
    static final String NO_WORKER_FOR_TOOL = "no_worker_for_tool";

    private DeadLetterCodes() {
    }
}
