package dev.redrive.testing;

import dev.redrive.worker.tool.Tool;
import dev.redrive.worker.tool.ToolCall;

/** A tool that answers every call at once, {@code {"ok":true}}: for tests about anything but the tool. */
public record AnswersAtOnce(String name) implements Tool {
    @Override
    public String schemaVersion() {
        return "1";
    }

    @Override
    public String execute(ToolCall call) {
        return "{\"ok\":true}";
    }
}
