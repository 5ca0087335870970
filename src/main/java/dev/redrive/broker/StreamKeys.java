package dev.redrive.broker;

/** The Redis keys of one namespace: the dispatch stream, the retry set and the DLQ event stream. */
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

    /** Matches every key of the namespace; for cleaning up a test or sandbox namespace. */
    public String pattern() {
        return namespace + ":*";
    }
}
