package dev.redrive.worker.tool;

import dev.redrive.model.FailureClass;

import java.time.Duration;
import java.util.Optional;

/**
 * A classified failure of a tool call. Each subclass stands for one {@link FailureClass}; the worker reads the class
 * from the type and never from the message.
 */
public abstract sealed class ToolFailure extends Exception
        permits TransientFailure, RateLimitedFailure, DependencyDownFailure, InvalidInputFailure, PermissionFailure,
        UnknownSideEffectFailure {

    private final FailureClass failureClass;
    private final String code;
    private final Duration retryAfter;

    /** Each subclass names its class once, here, so that the class and the type can never disagree. */
    protected ToolFailure(FailureClass failureClass, String code, String message, Duration retryAfter,
                          Throwable cause) {
        super(message, cause);
        this.failureClass = failureClass;
        this.code = code;
        this.retryAfter = retryAfter;
    }

    /** How the worker handles this failure. */
    public final FailureClass failureClass() {
        return failureClass;
    }

    /** A short machine-readable code such as {@code http_503}; part of the DLQ fingerprint. */
    public String code() {
        return code;
    }

    /** How long the tool asked to be left alone (e.g. from Retry-After), if it said. */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }
}
