package dev.redrive.triage.decision.lookup;

import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.worker.tool.EffectCount;
import dev.redrive.worker.tool.Reconciliation;
import dev.redrive.worker.tool.Tool;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Asks the worker's own {@link Tool#reconcile} and {@link Tool#countEffects} implementations, the same look-ups the
 * worker runs itself.
 */
public final class ToolSideEffectLookup implements SideEffectLookup {
    private final Map<String, Tool> tools;

    public ToolSideEffectLookup(List<Tool> tools) {
        this.tools = tools.stream().collect(Collectors.toUnmodifiableMap(Tool::name, Function.identity()));
    }

    @Override
    public LookupAnswer lookUp(String tool, String idempotencyKey) {
        Tool found = tools.get(tool);
        if (found == null) {
            return new LookupAnswer(ReconciliationOutcome.UNKNOWN, null, "no reconciliation is configured for " + tool);
        }
        Reconciliation answer = found.reconcile(idempotencyKey);
        ReconciliationOutcome outcome = switch (answer.outcome()) {
            case APPLIED -> ReconciliationOutcome.APPLIED;
            case NOT_APPLIED -> ReconciliationOutcome.NOT_APPLIED;
            case UNKNOWN -> ReconciliationOutcome.UNKNOWN;
        };
        return new LookupAnswer(outcome, answer.result() == null ? null : TriageJson.parse(answer.result()), answer.evidence());
    }

    @Override
    public EffectCount countEffects(String tool, String idempotencyKey) {
        Tool found = tools.get(tool);
        return found == null ? SideEffectLookup.super.countEffects(tool, idempotencyKey) : found.countEffects(idempotencyKey);
    }
}
