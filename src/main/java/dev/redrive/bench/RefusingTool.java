package dev.redrive.bench;

import dev.redrive.worker.tool.InvalidInputFailure;
import dev.redrive.worker.tool.Tool;
import dev.redrive.worker.tool.ToolCall;

/** A tool that refuses every call as invalid input at once, so a worker dead-letters each operation on its first try. */
final class RefusingTool implements Tool {
    static final String NAME = "bench.refuse";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String schemaVersion() {
        return "1";
    }

    @Override
    public String execute(ToolCall call) throws InvalidInputFailure {
        throw new InvalidInputFailure("amount_out_of_range", "amount is outside the allowed range");
    }
}
