package dev.redrive.worker.tool;

import dev.redrive.model.FailureClass;

import java.time.Duration;

/** The call may or may not have changed the world (the answer was lost after the request was sent): the worker reconciles before anything else. */
public final class UnknownSideEffectFailure extends ToolFailure {
    public UnknownSideEffectFailure(String code, String message) {
        this(code, message, null, null);
    }

    public UnknownSideEffectFailure(String code, String message, Duration retryAfter, Throwable cause) {
        super(FailureClass.UNKNOWN_SIDE_EFFECT, code, message, retryAfter, cause);
    }
}
