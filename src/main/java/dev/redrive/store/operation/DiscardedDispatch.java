package dev.redrive.store.operation;

import java.util.Map;
import java.util.UUID;

/**
 * A dispatch the worker acked without running it, and why; written to {@code audit_log} with actor {@code worker}.
 *
 * @param cancelOperation also move the operation to CANCELLED (its run is no longer running)
 * @param failCommand     also mark the redrive command the dispatch carried FAILED
 */
public record DiscardedDispatch(String operationId, UUID commandId, String reason, Map<String, Object> details,
                      boolean cancelOperation, boolean failCommand) {
    /** The actor of the audit lines of discards. */
    public static final String ACTOR = "worker";
}
