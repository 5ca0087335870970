package dev.redrive.cli;

import dev.redrive.model.DecisionState;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.batch.BatchDecisions;
import dev.redrive.triage.decision.batch.BatchListener;
import dev.redrive.triage.decision.batch.BatchOptions;
import dev.redrive.triage.decision.batch.BatchReport;
import dev.redrive.triage.decision.batch.OpenEntries;
import dev.redrive.triage.decision.durable.BatchSelection;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.query.DlqFilter;
import dev.redrive.triage.request.RequestKind;
import dev.redrive.triage.request.RequestOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

@Command(name = "redrive", mixinStandardHelpOptions = true,
        description = {"Check every redrive precondition, then issue an audited redrive command: the operation is "
                + "dispatched again with the same operation id and idempotency key, attempt + 1 and the command id.",
                "With --payload or --payload-file, correct and redrive one operation: the next logical attempt of its "
                        + "node runs the corrected payload under its own operation id and idempotency key, and the "
                        + "original is SUPERSEDED and never runs again.",
                "Takes operation ids, a fingerprint group (--group), or every open entry matching the filters of dlq list "
                        + "(--class, --tool, --run, --trace, --from, --to, --side-effect, --text, --fingerprint); items are "
                        + "checked and recorded a chunk at a time, each on its own merits.",
                "A group or a filter (not a dry run) is a durable batch of any size: it prints its id, records its "
                        + "progress with each chunk, and goes on where it stopped with --resume BATCH, from any process; "
                        + "--batches lists them.",
                "Exit 3 with each failed check when anything is blocked; 5 when the database refuses the decision "
                        + "(a viewer's login)."})
final class RedriveOperationsCommand extends NamespaceCommand {
    @Parameters(paramLabel = "OP", arity = "0..*", description = "operation ids (run_id:node_id:logical_attempt)")
    List<String> operationIds = new ArrayList<>();

    @Option(names = "--group", paramLabel = "FP", description = "every open entry of this error fingerprint group")
    String group;

    /** Every open entry matching these filters (the options of dlq list), when any is given. */
    @Mixin
    DlqFilterOptions filters;

    @Option(names = "--reason", paramLabel = "TEXT", description = "why (kept in the command and the audit log); needed "
            + "unless --resume or --batches")
    String reason;

    @Option(names = "--resume", paramLabel = "BATCH", description = "go on with a durable batch where it stopped")
    Long resume;

    @Option(names = "--batches", description = "list the durable batches, newest first, with their progress")
    boolean batches;

    @Mixin
    OperatorOption operator;

    @Option(names = "--dry-run", description = "check and report every item, issue nothing")
    boolean dryRun;

    @Option(names = "--rate", paramLabel = "N",
            description = "at most N redrives per second over a batch (default: no limit)")
    Double rate;

    @Option(names = "--schema-version", paramLabel = "V",
            description = "dispatch with this tool schema version: the tool's current one, declared compatible")
    String schemaVersion;

    @Mixin
    JsonOption json;

    @Mixin
    CorrectionOptions correction;

    @Mixin
    BatchOutputOptions output;

    @Override
    public Integer call() {
        DlqFilterOptions.requireValue("--group", group);
        DlqFilter filter = filters.filter();
        boolean filtered = !filter.equals(DlqFilter.none());
        if (batches || resume != null) {
            if (!operationIds.isEmpty() || group != null || filtered || reason != null || dryRun || operator.given != null
                    || rate != null || schemaVersion != null || (batches && resume != null)) {
                throw new IllegalArgumentException("--batches and --resume BATCH take no operations, group, filter, "
                        + "--reason, --operator, --rate, --schema-version or --dry-run: a batch keeps its own (its "
                        + "decisions are recorded under the name that started it, and the login that resumes it)");
            }
            return batches ? listBatches() : resume(resume);
        }
        requireReasonAndOpenEntries(filter, filtered);
        PrintWriter out = spec.commandLine().getOut();
        if (correction.given()) {
            return correct(out);
        }
        try (TriageSession session = new TriageSession(connection)) {
            // A group or filter is a durable batch unless a four-eyes policy covers it: a request holds its items, so
            // then they are listed.
            if (!dryRun && operationIds.isEmpty()) {
                DlqFilter selection = group == null ? filter : withGroup(filter, group);
                DlqFilter open = selection.toBuilder().decisionState(DecisionState.OPEN).build();
                if (session.requests().wouldWait(RequestKind.REDRIVE, open, session.services().dlqQueries()).isEmpty()) {
                    return startBatch(session, selection);
                }
            }
            return redriveListed(session, filter, filtered, out);
        }
    }

    /** A redrive says why, names what it takes, and takes open entries only. */
    private void requireReasonAndOpenEntries(DlqFilter filter, boolean filtered) {
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("a redrive needs --reason TEXT: why (kept in the command and the audit log)");
        }
        if (operationIds.isEmpty() && group == null && !filtered) {
            throw new IllegalArgumentException("name the operations to redrive, a group with --group FP, or the open "
                    + "entries to take with the filters of dlq list (--class, --tool, --run, --text, ...)");
        }
        if (filter.decisionState() != null && filter.decisionState() != DecisionState.OPEN) {
            throw new IllegalArgumentException("a redrive takes open entries only: --state must be open, got "
                    + filter.decisionState().name().toLowerCase(java.util.Locale.ROOT));
        }
    }

    /**
     * Redrives the operations named, with the group's or the filter's open entries, as one batch in this process: the
     * items a four-eyes policy covers wait for approval instead.
     */
    private int redriveListed(TriageSession session, DlqFilter filter, boolean filtered, PrintWriter out) {
        BatchDecisions batch = session.services().batchDecisions();
        batch.requireKnown(operationIds);
        List<DecisionTarget> targets = new ArrayList<>();
        operationIds.forEach(id -> targets.add(DecisionTarget.operation(id)));
        List<Long> leftOut = new ArrayList<>();
        if (group != null || filtered) {
            // One selection, as a durable batch takes it: the group's entries that match the filters too. An
            // operation named by id as well is taken once, where it was named.
            OpenEntries open = batch.openEntries(group == null ? filter : withGroup(filter, group));
            Set<String> named = Set.copyOf(operationIds);
            open.targets().stream().filter(target -> !named.contains(target.operationId())).forEach(targets::add);
            leftOut.addAll(open.withoutOperation());
        }
        if (operationIds.isEmpty() && targets.isEmpty()) {
            // As a durable batch refuses it, so that a dry run says what the real run would.
            BatchSelection selection = BatchSelection.matching(group == null ? filter : withGroup(filter, group));
            throw new IllegalArgumentException(leftOut.isEmpty() ? selection.nothingToTake(DecisionKind.REDRIVE)
                    : selection.onlyEntriesWithoutOperation(DecisionKind.REDRIVE, leftOut));
        }
        BatchOptions options = new BatchOptions(operator.name(), reason, schemaVersion, rate(),
                dryRun);
        if (!dryRun) {
            Optional<Integer> waits = FourEyesGate.submit(session, RequestKind.REDRIVE, targets,
                    selection(filtered, filter), RequestOptions.redrive(schemaVersion, rate()), options.operator(),
                    reason, json.on(), out);
            if (waits.isPresent()) {
                return waits.get();
            }
        }
        BatchReport report = batch.redrive(targets, options, BatchListener.NONE);
        if (json.on()) {
            DecisionPrinter.json(out, report);
        } else {
            DecisionPrinter.print(out, report);
        }
        if (!leftOut.isEmpty()) {
            // Beside JSON it goes to stderr, so the output stays one document.
            PrintWriter note = json.on() ? spec.commandLine().getErr() : out;
            note.println(leftOutLine(leftOut));
            note.flush();
        }
        out.flush();
        return DecisionPrinter.exitCode(report.items());
    }

    /** Redrives per second, 0 for no limit. */
    private double rate() {
        return rate == null ? 0 : rate;
    }

    private static DlqFilter withGroup(DlqFilter filter, String fingerprint) {
        if (filter.fingerprint() != null && !filter.fingerprint().equals(fingerprint)) {
            throw new IllegalArgumentException("--group " + fingerprint + " and --fingerprint " + filter.fingerprint()
                    + " name two groups: give one");
        }
        return filter.toBuilder().fingerprint(fingerprint).build();
    }

    private int startBatch(TriageSession session, DlqFilter selection) {
        BatchOptions options = new BatchOptions(operator.name(), reason, schemaVersion, rate(), false);
        return new DurableBatchRun(spec, json.on(), output).start(session, () -> session.batches()
                .start(DecisionKind.REDRIVE, BatchSelection.matching(selection), options));
    }

    private int resume(long id) {
        try (TriageSession session = new TriageSession(connection)) {
            return new DurableBatchRun(spec, json.on(), output).resume(session, id);
        }
    }

    private int listBatches() {
        try (TriageSession session = new TriageSession(connection)) {
            return BatchPrinter.listNewest(session, spec.commandLine().getOut(), json.on());
        }
    }

    private int correct(PrintWriter out) {
        if (group != null || operationIds.size() != 1) {
            throw new IllegalArgumentException("a correction takes exactly one operation id, got "
                    + (group != null ? "--group " + group : operationIds.size() + " ids")
                    + "; expected redrive OP --payload JSON --reason TEXT");
        }
        String text = correction.text(System.in);
        try (TriageSession session = new TriageSession(connection)) {
            DecisionTarget target = DecisionTarget.operation(operationIds.get(0)).withSchemaVersion(schemaVersion);
            if (!dryRun) {
                Optional<Integer> waits = FourEyesGate.submit(session, RequestKind.CORRECT, List.of(target), null,
                        RequestOptions.correction(text, schemaVersion), operator.name(), reason, json.on(),
                        out);
                if (waits.isPresent()) {
                    return waits.get();
                }
            }
            return CorrectionOptions.run(session.corrections(), target, text, dryRun, operator.name(),
                    reason, json.on(), out);
        }
    }

    /** How the operator named the items, for a request: null when only by operation ids. */
    private String selection(boolean filtered, DlqFilter filter) {
        List<String> parts = new ArrayList<>();
        if (!operationIds.isEmpty() && (group != null || filtered)) {
            parts.add(operationIds.size() + " operation(s)");
        }
        if (group != null) {
            parts.add("group " + group);
        }
        if (filtered) {
            parts.add("open entries matching " + filters.describe());
        }
        return parts.isEmpty() ? null : String.join(" + ", parts);
    }

    /** "left out 3 entries without an operation of their own (12, 13, 14); decide them with --entry ID". */
    static String leftOutLine(List<Long> ids) {
        String shown = ids.stream().limit(10).map(String::valueOf).collect(java.util.stream.Collectors.joining(", "))
                + (ids.size() > 10 ? ", …" : "");
        return "left out " + ids.size() + (ids.size() == 1 ? " entry" : " entries") + " without an operation of "
                + (ids.size() == 1 ? "its own" : "their own") + " (" + shown + "); decide them with --entry ID";
    }
}
