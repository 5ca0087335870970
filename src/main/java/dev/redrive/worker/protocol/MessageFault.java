package dev.redrive.worker.protocol;

import dev.redrive.envelope.InvalidEnvelopeException;
import dev.redrive.store.StoreException;
import io.lettuce.core.RedisException;

/**
 * Whose fault a failure raised while working on one message is, by its type: the message's own (it is dead-lettered
 * alone and the rest of its batch goes on), the servers' (the batch fails and is read again), or the JVM's (nothing
 * can go on). The one place that decides it, for every phase that works message by message.
 */
final class MessageFault {
    private MessageFault() {
    }

    /**
     * An error after which no code should go on: out of memory, a class that does not link. A stack overflow is not one:
     * deep input causes it, and by the time it is caught its stack is unwound.
     */
    static boolean isFatal(Throwable failure) {
        return failure instanceof VirtualMachineError && !(failure instanceof StackOverflowError)
                || failure instanceof LinkageError;
    }

    /**
     * A failure of the servers, not of the message the worker was handling: PostgreSQL or Redis away, refusing the
     * worker's login, short of resources or shutting down, or the namespace's schema missing; or the worker was
     * interrupted. Whatever message comes next would fail the same way.
     */
    static boolean isInfrastructure(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof InterruptedException || cause instanceof RedisException) {
                return true;
            }
        }
        if (failure instanceof StoreException store) {
            String state = store.sqlState();
            return state == null || store.isConnectionFailure() || store.isSchemaMissing() || store.isRefused()
                    || state.startsWith("53") || state.startsWith("57P") || state.startsWith("58")
                    || state.startsWith("XX");
        }
        return false;
    }

    /** Whether the message being handled is to blame: neither fatal nor a failure of the servers. */
    static boolean isOwn(Throwable failure) {
        return !isFatal(failure) && !isInfrastructure(failure);
    }

    /** Rethrows a failure that is not the message's own, as it is. */
    static void rethrowUnlessOwn(Throwable failure) {
        if (failure instanceof RuntimeException runtime && !isOwn(failure)) {
            throw runtime;
        }
        if (failure instanceof Error error && !isOwn(failure)) {
            throw error;
        }
    }

    /**
     * Does work on one message; returns null, or the failure that is the message's own. A failure of the servers, or
     * a fatal error, is thrown on: the batch fails and its entries are read again.
     */
    static Throwable alone(Runnable work) {
        try {
            work.run();
            return null;
        } catch (Throwable failure) {
            rethrowUnlessOwn(failure);
            return failure;
        }
    }

    /** The dead-letter code of a message that failed with {@code failure} (its own: see {@link #isOwn}). */
    static String code(Throwable failure) {
        if (failure instanceof InvalidEnvelopeException invalid) {
            return invalid.code();
        }
        if (failure instanceof StackOverflowError) {
            return DeadLetterCodes.NESTING_TOO_DEEP;
        }
        if (failure instanceof NumberFormatException || failure instanceof ArithmeticException) {
            return DeadLetterCodes.UNREADABLE_NUMBER;
        }
        return DeadLetterCodes.UNDECODABLE_MESSAGE;
    }

    /**
     * What to tell an operator about {@code failure}: the rule a message breaks, or, for a failure nobody foresaw, its
     * type, what the worker was doing ({@code doing}, e.g. "decoding it") and its message.
     */
    static String describe(Throwable failure, String doing) {
        if (failure instanceof InvalidEnvelopeException) {
            return failure.getMessage();
        }
        if (failure instanceof StackOverflowError) {
            return "the message is nested too deep to be handled: " + failure.getClass().getName() + " while " + doing;
        }
        return failure.getClass().getName() + " while " + doing + ": " + failure.getMessage();
    }
}
