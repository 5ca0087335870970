package dev.redrive.testing;

import dev.redrive.worker.tool.ToolCall;
import dev.redrive.worker.tool.TransientFailure;

import java.util.HashSet;
import java.util.Set;

/**
 * A tool that fails the first call of every idempotency key with a transient failure and answers the next at once:
 * each operation takes two attempts, one of them failed.
 */
public final class FirstCallFails extends TestTool {
    private final Set<String> seen = new HashSet<>();

    public FirstCallFails(String name) {
        super(name);
    }

    @Override
    public synchronized String execute(ToolCall call) throws TransientFailure {
        if (seen.add(call.idempotencyKey())) {
            throw new TransientFailure("first_call", "the first call of a key fails");
        }
        return "{\"ok\":true}";
    }
}
