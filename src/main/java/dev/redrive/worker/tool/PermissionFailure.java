package dev.redrive.worker.tool;

import dev.redrive.model.FailureClass;

import java.time.Duration;

/** The tool refused the caller: terminal, dead-lettered until someone intervenes. */
public final class PermissionFailure extends ToolFailure {
    public PermissionFailure(String code, String message) {
        this(code, message, null, null);
    }

    public PermissionFailure(String code, String message, Duration retryAfter, Throwable cause) {
        super(FailureClass.PERMISSION, code, message, retryAfter, cause);
    }
}
