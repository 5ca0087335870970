package dev.redrive.broker;

/**
 * The Redis keys of one namespace: the dispatch stream, the retry set, the DLQ event stream, and what every worker
 * of the namespace honours about a tool: its pause after a DEPENDENCY_DOWN and its rate budget.
 *
 * <p>Every key starts with the namespace in braces, {@code {redrive}:dispatch}: a Redis Cluster hash tag, so all keys
 * of a namespace live in one slot and the scripts that touch several of them (the retry promotion moves a dispatch
 * from the retry set to the stream) run on one node. A standalone server ignores the braces.
 */
public record StreamKeys(String namespace) {
    public static final String WORKER_GROUP = "workers";

    public String dispatch() {
        return key("dispatch");
    }

    public String retry() {
        return key("retry");
    }

    public String dlq() {
        return key("dlq");
    }

    /** Hash: tool name to "{until epoch millis} {failure class}", the pause one worker's failure set for all. */
    public String toolPauses() {
        return key("tool-pauses");
    }

    /** Hash: tool name to the epoch millis a worker serving it last announced itself. */
    public String toolWorkers() {
        return key("tool-workers");
    }

    /** Hash: tool name to the epoch millis a worker first met a dispatch of it that no worker had announced. */
    public String unservedTools() {
        return key("unserved-tools");
    }

    /** Hash: the token bucket ("tokens", "at" in epoch millis) of a tool's rate budget, shared by every worker. */
    public String toolBudget(String tool) {
        return key("tool-budget:" + tool);
    }

    /**
     * String: set by the first worker that finds it absent. Its absence tells workers that Redis lost the namespace's
     * data (restarted empty, failed over without replication, flushed), so they publish again what PostgreSQL says is
     * waiting instead of waiting for the sweep's grace period.
     */
    public String marker() {
        return key("marker");
    }

    /** List: the consumers that held one dispatch entry when their process ended, its crash history. */
    public String deliveries(String entryId) {
        return key("deliveries:" + entryId);
    }

    /**
     * Matches every key of the namespace; for cleaning up a test or sandbox namespace. The braces are no glob
     * characters, so the pattern needs no escaping.
     */
    public String pattern() {
        return key("*");
    }

    private String key(String name) {
        return "{" + namespace + "}:" + name;
    }
}
