package dev.redrive.worker.tool;

import dev.redrive.model.FailureClass;

import java.time.Duration;

/** A failure that may go away by itself: retried after an exponential backoff with jitter. */
public final class TransientFailure extends ToolFailure {
    public TransientFailure(String code, String message) {
        this(code, message, null, null);
    }

    public TransientFailure(String code, String message, Duration retryAfter, Throwable cause) {
        super(FailureClass.TRANSIENT, code, message, retryAfter, cause);
    }
}
