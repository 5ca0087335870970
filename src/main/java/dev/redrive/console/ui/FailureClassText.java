package dev.redrive.console.ui;

import dev.redrive.model.FailureClass;

/** Failure classes in few letters for narrow columns; the full name and what it means go in the tooltip. */
public final class FailureClassText {
    private FailureClassText() {
    }

    public static String shortName(FailureClass failureClass) {
        return switch (failureClass) {
            case TRANSIENT -> "TRANSIENT";
            case RATE_LIMITED -> "RATE LIMIT";
            case DEPENDENCY_DOWN -> "DEP. DOWN";
            case INVALID_INPUT -> "INVALID";
            case PERMISSION -> "PERMISSION";
            case UNKNOWN_SIDE_EFFECT -> "UNKNOWN S.E.";
        };
    }

    public static String explain(FailureClass failureClass) {
        return failureClass.name() + ": " + switch (failureClass) {
            case TRANSIENT -> "a passing fault of the tool; retried with backoff";
            case RATE_LIMITED -> "the tool asked to slow down (429, Retry-After)";
            case DEPENDENCY_DOWN -> "the tool or something it needs was unavailable";
            case INVALID_INPUT -> "the tool refused the payload; re-running it unchanged fails again";
            case PERMISSION -> "the caller may not do this (403, a revoked approval)";
            case UNKNOWN_SIDE_EFFECT -> "no answer came back: the effect may have been applied";
        };
    }
}
