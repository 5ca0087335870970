package dev.redrive.worker.tool;

import dev.redrive.model.FailureClass;

import java.time.Duration;

/** The tool refused the payload: terminal, dead-lettered after this one attempt. */
public final class InvalidInputFailure extends ToolFailure {
    public InvalidInputFailure(String code, String message) {
        super(code, message, null, null);
    }

    public InvalidInputFailure(String code, String message, Duration retryAfter, Throwable cause) {
        super(code, message, retryAfter, cause);
    }

    @Override
    public FailureClass failureClass() {
        return FailureClass.INVALID_INPUT;
    }
}
