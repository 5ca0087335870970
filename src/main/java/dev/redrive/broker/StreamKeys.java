package dev.redrive.broker;

/**
 * The Redis keys of one namespace: the dispatch stream, the retry set, the DLQ event stream, and what every worker
 * of the namespace honours about a tool: its pause after a DEPENDENCY_DOWN and its rate budget.
 */
public record StreamKeys(String namespace) {
    public static final String WORKER_GROUP = "workers";

    public String dispatch() {
        return namespace + ":dispatch";
    }

    public String retry() {
        return namespace + ":retry";
    }

    public String dlq() {
        return namespace + ":dlq";
    }

    /** Hash: tool name to "{until epoch millis} {failure class}", the pause one worker's failure set for all. */
    public String toolPauses() {
        return namespace + ":tool-pauses";
    }

    /** Hash: the token bucket ("tokens", "at" in epoch millis) of a tool's rate budget, shared by every worker. */
    public String toolBudget(String tool) {
        return namespace + ":tool-budget:" + tool;
    }

    /**
     * String: set by the first worker that finds it absent. Its absence tells workers that Redis lost the namespace's
     * data (restarted empty, failed over without replication, flushed), so they publish again what PostgreSQL says is
     * waiting instead of waiting for the sweep's grace period.
     */
    public String marker() {
        return namespace + ":marker";
    }

    /** Matches every key of the namespace; for cleaning up a test or sandbox namespace. */
    public String pattern() {
        return namespace + ":*";
    }
}
