package dev.redrive.worker.retry;

import dev.redrive.model.FailureClass;

import java.time.Instant;
import java.util.Map;

/**
 * Where the workers of a namespace share which tools are paused: a DEPENDENCY_DOWN one worker sees defers the tool for
 * every worker, not only for itself.
 */
public interface ToolPauses {
    /** Nothing shared: each worker keeps its own pauses. */
    ToolPauses LOCAL = new ToolPauses() {
        @Override
        public void publish(String tool, Instant until, FailureClass because) {
        }

        @Override
        public Map<String, ToolGate.Closed> read() {
            return Map.of();
        }
    };

    /** Pauses {@code tool} until {@code until} for every worker; a later pause already in force is kept. */
    void publish(String tool, Instant until, FailureClass because);

    /** The pauses in force or lately ended, by tool. */
    Map<String, ToolGate.Closed> read();
}
