package dev.redrive.testing;

import dev.redrive.worker.tool.Reconciliation;
import dev.redrive.worker.tool.Tool;

/**
 * A real tool with something done around its calls (an answer after the effect, a stall): name, schema version and
 * look-ups are the wrapped tool's; a subclass says what a call does.
 */
public abstract class WrappedTool implements Tool {
    protected final Tool tool;

    protected WrappedTool(Tool tool) {
        this.tool = tool;
    }

    @Override
    public final String name() {
        return tool.name();
    }

    @Override
    public final String schemaVersion() {
        return tool.schemaVersion();
    }

    @Override
    public final Reconciliation reconcile(String idempotencyKey) {
        return tool.reconcile(idempotencyKey);
    }
}
