package dev.redrive.bench;

import dev.redrive.worker.tool.InvalidInputFailure;
import dev.redrive.worker.tool.Tool;
import dev.redrive.worker.tool.ToolCall;

/**
 * The benchmarks' tools: each answers at once, so that a benchmark measures the worker and its store, not a remote
 * system. One succeeds with every call; the other refuses every call as invalid input, so that a worker dead-letters
 * each operation on its first try.
 */
final class BenchTool implements Tool {
    static final BenchTool NO_OP = new BenchTool("bench.noop", false);
    static final BenchTool REFUSING = new BenchTool("bench.refuse", true);

    private final String name;
    private final boolean refuses;

    private BenchTool(String name, boolean refuses) {
        this.name = name;
        this.refuses = refuses;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String schemaVersion() {
        return "1";
    }

    @Override
    public String execute(ToolCall call) throws InvalidInputFailure {
        if (refuses) {
            throw new InvalidInputFailure("amount_out_of_range", "amount is outside the allowed range");
        }
        return "{\"ok\":true}";
    }
}
