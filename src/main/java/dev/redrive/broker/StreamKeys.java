package dev.redrive.broker;

/**
 * The Redis keys of one namespace: the dispatch stream, the retry set, the DLQ event stream and the tools paused by a
 * DEPENDENCY_DOWN, which every worker of the namespace honours.
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

    /** Matches every key of the namespace; for cleaning up a test or sandbox namespace. */
    public String pattern() {
        return namespace + ":*";
    }
}
