package dev.redrive.cli;

import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.decision.ReconciliationResult;
import dev.redrive.triage.decision.lookup.HttpSideEffectLookup;
import dev.redrive.triage.detail.OperationDetailsLoader;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.net.URI;

@Command(name = "reconcile", mixinStandardHelpOptions = true,
        description = {"Record whether an operation's side effect happened: from evidence you give, or by asking the "
                + "tool's look-up endpoint for the operation's idempotency key.",
                "APPLIED means: resolve it instead of redriving; NOT_APPLIED makes a redrive safe."})
final class ReconcileCommand extends NamespaceCommand {
    @Parameters(paramLabel = "OP", description = "operation id")
    String operationId;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    static final class Source {
        @Option(names = "--applied", description = "the effect happened (give --evidence, and --result if you have it)")
        boolean applied;

        @Option(names = "--not-applied", description = "the effect did not happen (give --evidence)")
        boolean notApplied;

        @Option(names = "--lookup", paramLabel = "URL", converter = HttpUrl.Converter.class,
                description = "ask the tool: GET URL + idempotency key (e.g. http://127.0.0.1:PORT/tools/demo.charge/effects/)")
        URI lookup;
    }

    @Option(names = "--evidence", paramLabel = "TEXT", description = "what shows it (required unless --lookup)")
    String evidence;

    @Option(names = "--result", paramLabel = "JSON", description = "the applied effect's result, a JSON object (what resolve takes)")
    String result;

    @Mixin
    OperatorOption operator;

    @Override
    public Integer call() {
        try (TriageSession session = new TriageSession(connection)) {
            Decisions decisions = session.decisions();
            String who = operator.name();
            ReconciliationResult recorded;
            if (source.lookup != null) {
                OperationDetailsLoader details = session.services().operationDetails();
                String tool = details.operation(operationId)
                        .orElseThrow(() -> details.unknownOperation(operationId)).tool();
                recorded = decisions.reconcileWithTool(operationId, HttpSideEffectLookup.forTool(tool, source.lookup), who);
            } else {
                recorded = decisions.recordReconciliation(operationId,
                        source.applied ? ReconciliationOutcome.APPLIED : ReconciliationOutcome.NOT_APPLIED, evidence,
                        result == null ? null : ResolveCommand.parseResult(result), who);
            }
            PrintWriter out = spec.commandLine().getOut();
            out.printf("%s: reconciled %s (%s), side effect now %s; evidence: %s%n", recorded.operationId(), recorded.outcome(),
                    recorded.source(), recorded.sideEffect(), recorded.evidence());
            out.flush();
            return 0;
        }
    }
}
