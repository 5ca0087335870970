package dev.redrive.report;

import dev.redrive.RuntimeVersion;
import dev.redrive.config.FileProblem;
import dev.redrive.store.Database;
import dev.redrive.triage.decision.durable.BatchOutcomes;
import dev.redrive.triage.decision.durable.DurableBatch;
import dev.redrive.triage.decision.lookup.SideEffectLookup;
import dev.redrive.triage.decision.verify.RedriveVerifier;
import dev.redrive.triage.detail.EntryDetails;
import dev.redrive.triage.detail.EntryDetailsLoader;
import dev.redrive.triage.detail.OperationDetails;
import dev.redrive.triage.detail.OperationDetailsLoader;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.precondition.PreconditionEngine;
import dev.redrive.triage.query.DlqFilter;
import dev.redrive.triage.query.DlqQueries;
import dev.redrive.triage.query.DlqRow;
import dev.redrive.triage.query.FingerprintGroup;
import dev.redrive.triage.query.JdbcDlqQueries;
import dev.redrive.triage.redaction.Redactor;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * Builds incident reports (one operation, a selection, a fingerprint group, one DLQ entry) and writes them as HTML, PDF, Markdown or
 * JSON. Payload fields on the redaction list, and secrets in error messages and other free text, are masked before
 * anything is rendered.
 */
public final class ReportService {
    /** A group report shows at most this many operations (the newest); the rest are counted as left out. */
    public static final int MAX_OPERATIONS = 200;

    private final Database database;
    private final OperationDetailsLoader loader;
    private final EntryDetailsLoader entries;
    private final PreconditionEngine engine;
    private final RedriveVerifier verifier;
    private final DlqQueries queries;
    private final Clock clock;
    private final Redactor redactor;

    /** Reports that verify redrives by their attempts only: no tool is asked to count its effects. */
    public ReportService(Database database, Clock clock, Redactor redactor) {
        this(database, clock, redactor, SideEffectLookup.none());
    }

    /** @param tools asked to count the effects of a redriven operation (the verification of a redrive) */
    public ReportService(Database database, Clock clock, Redactor redactor, SideEffectLookup tools) {
        this.database = database;
        this.loader = new OperationDetailsLoader(database);
        this.entries = new EntryDetailsLoader(database);
        this.engine = new PreconditionEngine(database, clock);
        this.verifier = new RedriveVerifier(database, tools);
        this.queries = new JdbcDlqQueries(database);
        this.clock = clock;
        this.redactor = redactor;
    }

    public IncidentReport operation(String operationId) {
        return report("Incident report: " + operationId, "operation", null, null, List.of(operationId), 0);
    }

    public IncidentReport selection(List<String> operationIds) {
        if (operationIds.isEmpty()) {
            throw new IllegalArgumentException("a report needs at least one operation");
        }
        if (operationIds.size() > MAX_OPERATIONS) {
            throw new IllegalArgumentException("a selection report takes at most " + MAX_OPERATIONS + " operations, got "
                    + operationIds.size());
        }
        List<String> distinct = List.copyOf(new LinkedHashSet<>(operationIds));
        return report("Incident report: " + distinct.size() + " operation(s)", "selection", null, null, distinct, 0);
    }

    /**
     * One DLQ entry: its operation's report when it was entered for one, else the entry alone with its raw message,
     * error, decision and audit trail.
     */
    public IncidentReport entry(long entryId) {
        EntryDetails details = entries.require(entryId);
        if (details.operation() != null) {
            return report("Incident report: DLQ entry " + entryId + " of " + details.operation().operationId(), "entry",
                    null, null, List.of(details.operation().operationId()), 0);
        }
        EntryReport entry = new EntryReport(redactor.redact(details),
                redactor.redact(engine.checkEntryOnly(DecisionTarget.entry(entryId))));
        return new IncidentReport("Incident report: DLQ entry " + entryId, "entry", clock.instant(), database.schema(),
                RuntimeVersion.current(), null, null, List.of(), List.of(entry), 0, redactor.fields());
    }

    public IncidentReport group(String fingerprint) {
        DlqFilter filter = DlqFilter.builder().fingerprint(fingerprint).build();
        FingerprintGroup group = queries.groups(filter).stream().findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no DLQ entry has the fingerprint '" + fingerprint + "'"));
        List<String> reported = ownOperations(filter).stream().limit(MAX_OPERATIONS).toList();
        return report("Incident report: fingerprint group " + fingerprint, "group", redactor.redact(group), null,
                reported, Math.max(0, group.count() - reported.size()));
    }

    /**
     * Every operation whose DLQ entries carry this trace: a trace or correlation id as sent, or a W3C trace id (32 hex
     * digits, or the whole traceparent) from a dispatch that carried only a traceparent, as {@code dlq list --trace}
     * finds them.
     */
    public IncidentReport trace(String trace) {
        DlqFilter filter = DlqFilter.builder().traceOrCorrelationId(trace).build();
        Set<String> operationIds = ownOperations(filter);
        if (operationIds.isEmpty()) {
            throw new IllegalArgumentException("no DLQ entry of an operation carries the trace '" + trace
                    + "'; expected a trace or correlation id, a W3C trace id (32 hex digits) or a traceparent");
        }
        List<String> reported = operationIds.stream().limit(MAX_OPERATIONS).toList();
        return report("Incident report: trace " + trace, "trace", null, null, reported,
                operationIds.size() - reported.size());
    }

    /** The operations whose own entries the first page of the filter holds, each once, in the page's order. */
    private Set<String> ownOperations(DlqFilter filter) {
        Set<String> operationIds = new LinkedHashSet<>();
        for (DlqRow row : queries.firstPage(filter, JdbcDlqQueries.MAX_PAGE_SIZE).rows()) {
            if (row.ownEntry()) {
                operationIds.add(row.operationId());
            }
        }
        return operationIds;
    }

    /**
     * A durable batch: what it was asked to do, what became of each item as the facts say now (blocked and by which
     * check, redriven then succeeded, failed again into which entry, still running, decided elsewhere), and the
     * evidence of its first {@link #MAX_OPERATIONS} operations.
     */
    public IncidentReport batch(long batchId) {
        BatchOutcomes.Report outcomes = new BatchOutcomes(database).of(batchId, Integer.MAX_VALUE)
                .orElseThrow(() -> new IllegalArgumentException("no batch " + batchId + "; redrive batch list shows them"));
        Set<String> operationIds = new LinkedHashSet<>();
        outcomes.items().stream().map(BatchOutcomes.Item::operationId).filter(Objects::nonNull).forEach(operationIds::add);
        List<String> reported = operationIds.stream().limit(MAX_OPERATIONS).toList();
        DurableBatch batch = outcomes.batch();
        return report("Incident report: batch " + batchId + " (" + batch.kind().name().toLowerCase(Locale.ROOT) + " of "
                        + batch.selection().describe() + ")", "batch", null, outcomes, reported,
                operationIds.size() - reported.size());
    }

    public void write(IncidentReport report, ReportFormat format, OutputStream out) {
        try {
            switch (format) {
                case JSON -> out.write(TriageJson.write(report).getBytes(StandardCharsets.UTF_8));
                case HTML -> out.write(ReportHtml.render(ReportLayout.of(report, clock.getZone())).getBytes(StandardCharsets.UTF_8));
                case MARKDOWN -> out.write(MarkdownReportRenderer.render(ReportLayout.of(report, clock.getZone())).getBytes(StandardCharsets.UTF_8));
                case PDF -> PdfReport.render(ReportLayout.of(report, clock.getZone()), out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the report: " + e.getMessage(), e);
        }
    }

    /** Writes the report to a file, replacing it. */
    public Path write(IncidentReport report, ReportFormat format, Path file) {
        try (OutputStream out = Files.newOutputStream(file)) {
            write(report, format, out);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + FileProblem.writing(e), e);
        }
    }

    private IncidentReport report(String title, String scope, FingerprintGroup group, BatchOutcomes.Report batch,
                                  List<String> operationIds, long omitted) {
        List<OperationReport> operations = new ArrayList<>();
        for (String operationId : operationIds) {
            OperationDetails details = loader.require(operationId);
            operations.add(new OperationReport(redactor.redact(details),
                    redactor.redact(engine.check(DecisionTarget.operation(operationId))),
                    verifier.latest(operationId).orElse(null)));
        }
        return new IncidentReport(title, scope, clock.instant(), database.schema(), RuntimeVersion.current(), group,
                batch, operations, List.of(), omitted, redactor.fields());
    }
}
