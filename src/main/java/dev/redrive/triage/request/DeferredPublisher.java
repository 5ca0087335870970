package dev.redrive.triage.request;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.triage.decision.DispatchPublisher;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Holds the dispatches a decision publishes while it runs inside an approval's transaction: they go out only after
 * that transaction committed, as a direct decision's go out after its own (a worker must never see a dispatch whose
 * command is not committed yet).
 */
final class DeferredPublisher implements DispatchPublisher {
    private final List<DispatchEnvelope> held = new ArrayList<>();

    @Override
    public String publish(DispatchEnvelope envelope) {
        held.add(envelope);
        return "";
    }

    @Override
    public List<String> publishAll(List<DispatchEnvelope> envelopes) {
        held.addAll(envelopes);
        return Collections.nCopies(envelopes.size(), "");
    }

    List<DispatchEnvelope> held() {
        return List.copyOf(held);
    }
}
