package dev.redrive.worker.tool;

import dev.redrive.model.FailureClass;

import java.time.Duration;

/** The tool refused the caller: terminal, dead-lettered until someone intervenes. */
public final class PermissionFailure extends ToolFailure {
    public PermissionFailure(String code, String message) {
        super(code, message, null, null);
    }

    public PermissionFailure(String code, String message, Duration retryAfter, Throwable cause) {
        super(code, message, retryAfter, cause);
    }

    @Override
    public FailureClass failureClass() {
        return FailureClass.PERMISSION;
    }
}
