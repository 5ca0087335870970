package dev.redrive.worker.tool;

/**
 * A remote action the worker executes for an operation, such as an HTTP call that charges a card.
 *
 * <p>The worker calls {@link #execute} at most once per claimed attempt, always with the operation's stable
 * idempotency key: a tool that honours the key turns a repeated call into a replay of the first result. A failure is
 * reported by throwing a {@link ToolFailure} subclass; its type, never its message, decides what happens next.
 * Any other exception is treated as a crash of the handler: the message is left for redelivery and dead-lettered
 * after the worker's delivery limit.
 *
 * <p>When the outcome of a call is unknown (the answer was lost after the request was sent), the worker asks
 * {@link #reconcile} whether the effect was applied before it decides anything else. Before it calls again for a key
 * whose earlier call may have acted (a worker died or was stopped during it, its answer was lost, or the tool answered
 * it with a failure), the worker asks {@link #reconcile} first and calls only when the look-up says the effect was not
 * applied. A tool that cannot look up is called again only after its own failure answers; a call whose outcome nobody
 * saw is then dead-lettered with side effect POSSIBLE for an operator to reconcile.
 */
public interface Tool {

    /** The tool's name as dispatches carry it ({@code tool} field), e.g. {@code demo.charge}. */
    String name();

    /** The schema version of the payload this implementation understands; recorded in {@code tool_schemas} at start. */
    String schemaVersion();

    /**
     * Performs the action.
     *
     * @return the result as a JSON document, stored as the operation's result
     * @throws ToolFailure a classified failure
     */
    String execute(ToolCall call) throws ToolFailure;

    /**
     * Looks up, by idempotency key, whether an earlier call applied its effect. The default cannot tell, which sends
     * an operation with an unknown side effect to the DLQ with side effect POSSIBLE.
     */
    default Reconciliation reconcile(String idempotencyKey) {
        return Reconciliation.unknown(name() + " cannot look up effects by idempotency key");
    }

    /**
     * Counts, by idempotency key, the effects this tool applied: 1 after a redrive that ran once, more when the
     * exactly-once guarantee broke. Triage asks it to verify a redrive ({@code op show}, the console, reports) and never
     * reads a tool's own storage. The default cannot count, which the verification reports as "not verifiable for this
     * tool".
     */
    default EffectCount countEffects(String idempotencyKey) {
        return EffectCount.notCountable(name() + " does not count its effects by idempotency key");
    }
}
