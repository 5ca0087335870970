package dev.redrive.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.bench.generate.DlqGenerator;
import dev.redrive.bench.generate.GeneratedDlq;
import dev.redrive.store.deadletter.EvidencePurge;
import dev.redrive.store.deadletter.PurgePreview;
import dev.redrive.store.deadletter.PurgeSummary;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.triage.query.DlqCount;
import dev.redrive.triage.query.DlqCursor;
import dev.redrive.triage.query.DlqFilter;
import dev.redrive.triage.query.DlqOrder;
import dev.redrive.triage.query.DlqPage;
import dev.redrive.triage.query.DlqQueries;
import dev.redrive.triage.query.JdbcDlqQueries;
import dev.redrive.triage.query.DlqRow;
import dev.redrive.triage.query.FingerprintGroup;
import dev.redrive.triage.query.PageDirection;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;

@Command(name = "dlq", mixinStandardHelpOptions = true, description = "Query the dead-letter queue.",
        subcommands = {DlqCommand.ListEntries.class, DlqCommand.Groups.class, DlqCommand.Purge.class,
                DlqCommand.Generate.class})
final class DlqCommand {

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "DLQ entries, newest first (--oldest-first for the other way), keyset-paged: pass the printed cursor "
                    + "to --after (the next page) or --before (the previous page), with the same order option.")
    static final class ListEntries extends NamespaceCommand {
        @Mixin
        DlqFilterOptions filters;

        @Option(names = "--limit", defaultValue = "50", description = "entries per page, 1 to 1000 (default ${DEFAULT-VALUE})")
        int limit;

        @Option(names = "--oldest-first", description = "list the oldest entries first (default: newest first)")
        boolean oldestFirst;

        @ArgGroup(exclusive = true)
        Position position;

        static final class Position {
            @Option(names = "--after", paramLabel = "CURSOR",
                    description = "the page after this cursor: older entries, newer ones with --oldest-first")
            String after;

            @Option(names = "--before", paramLabel = "CURSOR",
                    description = "the page before this cursor: newer entries, older ones with --oldest-first")
            String before;
        }

        @Mixin
        JsonOption json;

        @Override
        public Integer call() {
            if (limit < 1 || limit > JdbcDlqQueries.MAX_PAGE_SIZE) {
                throw new IllegalArgumentException("--limit must be 1 to " + JdbcDlqQueries.MAX_PAGE_SIZE
                        + " entries per page, got " + limit);
            }
            DlqFilter filter = filters.filter();
            DlqCursor cursor = position == null ? null : DlqCursor.parse(position.after != null ? position.after : position.before);
            PageDirection direction = position != null && position.before != null ? PageDirection.PREVIOUS : PageDirection.NEXT;
            DlqOrder order = oldestFirst ? DlqOrder.OLDEST_FIRST : DlqOrder.NEWEST_FIRST;
            try (TriageSession session = new TriageSession(connection)) {
                DlqQueries queries = session.dlqQueries();
                DlqPage page = queries.page(filter, order, cursor, direction, limit);
                DlqCount count = queries.count(filter);
                PrintWriter out = spec.commandLine().getOut();
                if (json.on()) {
                    out.println(TriageJson.write(json(page, count)));
                } else {
                    text(out, page, count, order);
                }
                out.flush();
                return 0;
            }
        }

        private static ObjectNode json(DlqPage page, DlqCount count) {
            ObjectNode root = TriageJson.mapper().createObjectNode();
            root.set("rows", TriageJson.mapper().valueToTree(page.rows()));
            root.put("next_cursor", page.next() == null ? null : page.next().token());
            root.put("previous_cursor", page.previous() == null ? null : page.previous().token());
            root.put("has_more", page.hasMore());
            root.put("total", count.value());
            root.put("total_exact", count.exact());
            root.put("total_at_least", count.precision() == DlqCount.Precision.AT_LEAST);
            if (count.sampled() > 0) {
                root.put("total_sampled", count.sampled());
            }
            return root;
        }

        private static void text(PrintWriter out, DlqPage page, DlqCount count, DlqOrder order) {
            out.printf("%-27s %9s  %-34s %-19s %-17s %-11s %-10s %s%n", "ENTERED", "ID", "OPERATION", "CLASS", "TOOL",
                    "SIDE-EFFECT", "STATE", "ERROR");
            for (DlqRow row : page.rows()) {
                out.printf("%-27s %9d  %-34s %-19s %-17s %-11s %-10s %s%n", row.enteredAt(), row.id(),
                        Cells.cut(row.operationId(), 34), row.errorClass(), Cells.cut(row.tool(), 17), row.sideEffect(),
                        row.decisionState(), Cells.cut(row.errorMessage(), 70));
            }
            out.printf("%d shown of %s matching%n", page.rows().size(), count.display());
            boolean newestFirst = order == DlqOrder.NEWEST_FIRST;
            String orderOption = newestFirst ? "" : " --oldest-first";
            if (page.next() != null) {
                out.println((newestFirst ? "older" : "newer") + ": --after " + page.next().token() + orderOption);
            }
            if (page.previous() != null) {
                out.println((newestFirst ? "newer" : "older") + ": --before " + page.previous().token() + orderOption);
            }
        }
    }

    @Command(name = "groups", mixinStandardHelpOptions = true,
            description = "DLQ entries grouped by error fingerprint, largest group first.")
    static final class Groups extends NamespaceCommand {
        @Mixin
        DlqFilterOptions filters;

        @Mixin
        JsonOption json;

        @Override
        public Integer call() {
            try (TriageSession session = new TriageSession(connection)) {
                List<FingerprintGroup> groups = session.dlqQueries().groups(filters.filter());
                PrintWriter out = spec.commandLine().getOut();
                if (json.on()) {
                    ArrayNode array = TriageJson.mapper().valueToTree(groups);
                    out.println(TriageJson.write(array));
                } else {
                    out.printf("%8s %8s  %-16s %-17s %-28s %-27s %s%n", "ENTRIES", "OPEN", "FINGERPRINT", "TOOL", "CLASSES",
                            "LAST SEEN", "SAMPLE ERROR");
                    for (FingerprintGroup group : groups) {
                        out.printf("%8d %8d  %-16s %-17s %-28s %-27s %s%n", group.count(), group.openCount(),
                                group.fingerprint(), Cells.cut(group.tool(), 17),
                                Cells.cut(group.classes().stream().map(Enum::name).collect(Collectors.joining(",")), 28),
                                group.lastSeen(), Cells.cut(group.sampleMessage(), 70));
                    }
                    out.printf("%d group(s)%n", groups.size());
                }
                out.flush();
                return 0;
            }
        }
    }

    @Command(name = "purge", mixinStandardHelpOptions = true,
            description = {"Remove the bulky evidence (raw message, payload, attempt and delivery history) of DLQ "
                    + "entries decided before TIME; identity, error, decision and the audit log are kept. Open "
                    + "entries are never touched. Only the schema owner may purge (exit 5 otherwise).",
                    "Each chunk of 1,000 entries is one transaction with its audit line: a purge stopped midway "
                            + "leaves every entry whole or purged, and running it again finishes it."})
    static final class Purge extends NamespaceCommand {
        @Option(names = "--decided-before", required = true, paramLabel = "TIME",
                converter = InstantInput.Converter.class,
                description = "purge entries decided before this: 2026-11-30T10:00:00Z, 2026-11-30 10:00, 2026-11-30 "
                        + "or a time before now (-90d)")
        Instant decidedBefore;

        @Option(names = "--dry-run", description = "say what would be purged, and purge nothing")
        boolean dryRun;

        @Mixin
        OperatorOption operator;

        @Mixin
        JsonOption json;

        @Override
        public Integer call() {
            try (TriageSession session = new TriageSession(connection)) {
                requirePast(decidedBefore, session.clock().instant());
                EvidencePurge purge = new EvidencePurge(session.database().jdbc());
                PrintWriter out = spec.commandLine().getOut();
                if (dryRun) {
                    PurgePreview preview = purge.preview(decidedBefore);
                    out.println(json.on() ? TriageJson.write(preview) : "dry run: would purge the evidence of "
                            + preview.entries() + " entries decided before " + decidedBefore + " ("
                            + Cells.bytes(preview.bytes()) + (preview.entries() == 0 ? ""
                            : ", decided " + preview.oldestDecision() + " to " + preview.newestDecision()) + ")");
                } else {
                    PurgeSummary done = purge.purge(decidedBefore, operator.name(),
                            session.clock().instant(), EvidencePurge.CHUNK, Long.MAX_VALUE);
                    out.println(json.on() ? TriageJson.write(done) : done.entries() == 0
                            ? "nothing to purge: no decided entry before " + decidedBefore + " holds evidence"
                            : "purge " + done.purgeId() + ": removed the evidence of " + done.entries()
                                    + " entries decided before " + decidedBefore + " (" + Cells.bytes(done.bytes())
                                    + "); their identity, decision and audit trail are kept");
                }
                out.flush();
                return 0;
            }
        }
    }

    /** A moment in the future would purge every decision so far: a typo, never what an operator means. */
    private static void requirePast(Instant decidedBefore, Instant now) {
        if (decidedBefore.isAfter(now)) {
            throw new IllegalArgumentException("--decided-before must be in the past (e.g. -90d), got " + decidedBefore);
        }
        if (decidedBefore.isBefore(Instant.EPOCH)) {
            throw new IllegalArgumentException("--decided-before must be after 1970-01-01 (e.g. -90d), got "
                    + decidedBefore);
        }
    }

    @Command(name = "generate", mixinStandardHelpOptions = true,
            description = "Fill the namespace with realistic dead-lettered operations (runs, attempts, evidence) for "
                    + "benchmarks and demos. Large batches lock the DLQ tables while they load.")
    static final class Generate extends NamespaceCommand {
        @Option(names = "--entries", required = true, description = "how many DLQ entries to write")
        int entries;

        @Option(names = "--tag", description = "prefix of the generated run ids (default: a random one)")
        String tag;

        @Override
        public Integer call() {
            try (TriageSession session = new TriageSession(connection)) {
                session.database().migrate();
                DlqGenerator generator = new DlqGenerator(session.database(), session.clock());
                GeneratedDlq generated = tag == null ? generator.generate(entries) : generator.generate(entries, tag);
                spec.commandLine().getOut().printf("%d DLQ entries, %d runs, %d attempts written under run ids %s-run-* in %.1f s%n",
                        generated.entries(), generated.runs(), generated.attempts(), generated.tag(),
                        generated.elapsed().toMillis() / 1000.0);
                spec.commandLine().getOut().flush();
                return 0;
            }
        }
    }
}
