package dev.redrive.worker.tool;

import dev.redrive.model.FailureClass;

import java.time.Duration;

/** The tool refused the payload: terminal, dead-lettered after this one attempt. */
public final class InvalidInputFailure extends ToolFailure {
    public InvalidInputFailure(String code, String message) {
        this(code, message, null, null);
    }

    public InvalidInputFailure(String code, String message, Duration retryAfter, Throwable cause) {
        super(FailureClass.INVALID_INPUT, code, message, retryAfter, cause);
    }
}
