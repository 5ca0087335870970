package dev.redrive.cli;

import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.request.RequestKind;
import dev.redrive.triage.request.RequestOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.util.List;
import java.util.Optional;

@Command(name = "discard", mixinStandardHelpOptions = true,
        description = "Give a dead-lettered operation up, with a reason; it never runs again. With --entry, a DLQ entry: "
                + "one without an operation (a malformed dispatch) is discarded alone.")
final class DiscardCommand extends NamespaceCommand {
    @Mixin
    OperationOrEntry subject;

    @Mixin
    SingleDecisionOptions decision;

    @Override
    public Integer call() {
        DecisionTarget target = subject.target();
        try (TriageSession session = new TriageSession(connection)) {
            Optional<Integer> waits = FourEyesGate.submit(session, RequestKind.DISCARD, List.of(target), null,
                    RequestOptions.NONE, decision.operator(), decision.reason, decision.json.on(),
                    spec.commandLine().getOut());
            if (waits.isPresent()) {
                return waits.get();
            }
            DecisionResult decided = EntriesNamingHint.decide(session.database(), target,
                    () -> session.decisions().discard(target, decision.operator(), decision.reason));
            return decision.report(spec.commandLine().getOut(), decided);
        }
    }
}
