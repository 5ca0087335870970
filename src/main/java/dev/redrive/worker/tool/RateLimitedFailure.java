package dev.redrive.worker.tool;

import dev.redrive.model.FailureClass;

import java.time.Duration;

/** The tool is rate limiting us: retried no sooner than its Retry-After (and the tool's budget, if one is set). */
public final class RateLimitedFailure extends ToolFailure {
    public RateLimitedFailure(String code, String message, Duration retryAfter) {
        super(FailureClass.RATE_LIMITED, code, message, retryAfter, null);
    }
}
