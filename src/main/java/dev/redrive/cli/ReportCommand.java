package dev.redrive.cli;

import dev.redrive.report.IncidentReport;
import dev.redrive.report.ReportFormat;
import dev.redrive.report.ReportService;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Write an incident report for operations, a fingerprint group, a durable batch (what became of each "
                + "item) or one DLQ entry: identity, message metadata, "
                + "attempt timeline, errors, trace ids, versions, side effect and reconciliation, every precondition, "
                + "every decision. Payload secrets are masked.")
final class ReportCommand extends NamespaceCommand {
    @Parameters(paramLabel = "OP", arity = "0..*", description = "operation ids")
    List<String> operationIds = new ArrayList<>();

    @Option(names = "--group", paramLabel = "FP", description = "every operation of this error fingerprint group")
    String group;

    @Option(names = "--batch", paramLabel = "BATCH",
            description = "a durable batch: what it was asked, each item's outcome now, and its operations' evidence")
    Long batch;

    @Option(names = "--entry", paramLabel = "ID",
            description = "one DLQ entry: its operation's report, or the entry alone when it has no operation (a malformed dispatch)")
    Long entry;

    @Option(names = "--trace", paramLabel = "TRACE",
            description = "every operation whose DLQ entries carry this trace or correlation id, W3C trace id (32 hex "
                    + "digits) or traceparent, as dlq list --trace finds them")
    String trace;

    @Option(names = "--format", required = true, paramLabel = "FORMAT", description = "html, pdf, md or json")
    String format;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "where to write the report")
    Path out;

    @Mixin
    RedactOption redact;

    @Override
    public Integer call() {
        ReportFormat reportFormat = ReportFormat.parse(format);
        long named = (operationIds.isEmpty() ? 0 : 1) + (group == null ? 0 : 1) + (entry == null ? 0 : 1)
                + (batch == null ? 0 : 1) + (trace == null ? 0 : 1);
        if (named != 1) {
            throw new ParameterException(spec.commandLine(), "expected operation ids (OP...), --group FP, --batch BATCH, "
                    + "--entry ID or --trace TRACE, exactly one of them");
        }
        try (TriageSession session = new TriageSession(connection)) {
            ReportService reports = session.services().reports(redact.redactor(), session.sideEffectLookup());
            IncidentReport report = group != null ? reports.group(group)
                    : batch != null ? reports.batch(batch)
                    : entry != null ? reports.entry(entry)
                    : trace != null ? reports.trace(trace)
                    : operationIds.size() == 1 ? reports.operation(operationIds.get(0)) : reports.selection(operationIds);
            reports.write(report, reportFormat, out);
            spec.commandLine().getOut().printf("%s report on %s written to %s%n", reportFormat.title(),
                    subjects(report), out.toAbsolutePath());
            spec.commandLine().getOut().flush();
            return 0;
        } catch (UncheckedIOException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    private static String subjects(IncidentReport report) {
        if (report.batch() != null) {
            return "batch " + report.batch().batch().id() + " (" + report.batch().items().size() + " item(s))";
        }
        return report.entries().isEmpty() ? report.operations().size() + " operation(s)"
                : report.entries().size() + " DLQ entry without an operation";
    }
}
