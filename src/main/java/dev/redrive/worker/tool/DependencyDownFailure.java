package dev.redrive.worker.tool;

import dev.redrive.model.FailureClass;

import java.time.Duration;

/** The tool's backend is down: the operation is retried later and the whole tool is deferred meanwhile. */
public final class DependencyDownFailure extends ToolFailure {
    public DependencyDownFailure(String code, String message) {
        this(code, message, null, null);
    }

    public DependencyDownFailure(String code, String message, Duration retryAfter, Throwable cause) {
        super(FailureClass.DEPENDENCY_DOWN, code, message, retryAfter, cause);
    }
}
