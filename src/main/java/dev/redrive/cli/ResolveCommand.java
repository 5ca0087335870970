package dev.redrive.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.request.RequestKind;
import dev.redrive.triage.request.RequestOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

@Command(name = "resolve", mixinStandardHelpOptions = true,
        description = "Mark a dead-lettered operation succeeded with the reconciled result; it never runs again. With "
                + "--entry, a DLQ entry: one without an operation (a malformed dispatch) is marked RESOLVED alone.")
final class ResolveCommand implements Callable<Integer> {
    @Mixin
    ConnectionOptions connection;

    @Mixin
    OperationOrEntry subject;

    @Mixin
    SingleDecisionOptions decision;

    @Option(names = "--result", paramLabel = "JSON",
            description = "the operation's result, a JSON object (default: the result of its latest APPLIED reconciliation); for an entry "
                    + "without an operation it is optional and only kept in the audit log")
    String result;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        DecisionTarget target = subject.target();
        JsonNode parsed = result == null ? null : parseResult(result);
        try (TriageSession session = new TriageSession(connection)) {
            Optional<Integer> waits = FourEyesGate.submit(session, RequestKind.RESOLVE, List.of(target), null,
                    RequestOptions.resolve(parsed), decision.operator(), decision.reason, decision.json.on(),
                    spec.commandLine().getOut());
            if (waits.isPresent()) {
                return waits.get();
            }
            DecisionResult decided = EntriesNamingHint.decide(session.database(), target,
                    () -> session.decisions().resolve(target, parsed, decision.operator(), decision.reason));
            return decision.report(spec.commandLine().getOut(), decided);
        }
    }

    static JsonNode parseResult(String text) {
        return TriageJson.parseObject(text, "--result");
    }
}
