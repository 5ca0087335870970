package dev.redrive.bench;

import dev.redrive.worker.tool.Tool;
import dev.redrive.worker.tool.ToolCall;

/** A tool that answers at once, so the benchmark measures the worker and its store, not a remote system. */
final class NoOpTool implements Tool {
    static final String NAME = "bench.noop";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String schemaVersion() {
        return "1";
    }

    @Override
    public String execute(ToolCall call) {
        return "{\"ok\":true}";
    }
}
