package dev.redrive.triage.decision.batch;

import dev.redrive.triage.precondition.DecisionTarget;

import java.util.List;

/**
 * The open entries a batch takes on, and those it leaves out because they have no operation of their own (messages
 * dead-lettered as themselves): an operator is told about those, since they are decided by entry id.
 *
 * @param targets          the operations' own entries, as the operator sees them now
 * @param withoutOperation the ids of the open entries left out, oldest last
 */
public record OpenEntries(List<DecisionTarget> targets, List<Long> withoutOperation) {

    public OpenEntries {
        targets = List.copyOf(targets);
        withoutOperation = List.copyOf(withoutOperation);
    }
}
