package dev.redrive.bench;

import dev.redrive.config.RedriveConfig;
import dev.redrive.model.FailureClass;
import dev.redrive.store.Database;
import dev.redrive.store.Jdbc;
import dev.redrive.triage.generate.DlqGenerator;
import dev.redrive.triage.generate.GeneratedDlq;
import dev.redrive.triage.query.DlqCursor;
import dev.redrive.triage.query.DlqFilter;
import dev.redrive.triage.query.DlqPage;
import dev.redrive.triage.query.JdbcDlqQueries;
import dev.redrive.triage.query.PageDirection;

import java.io.PrintWriter;
import java.time.Clock;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * DLQ queries at scale, each against a baseline measured in the same run on the same data: a keyset page deep in the
 * queue against the OFFSET page at the same depth, the estimated count against counting, a filtered keyset page
 * against its OFFSET twin. The namespace is filled by the generator up to the asked size and kept for the next run.
 */
public final class DlqBenchmark {
    private static final int PAGE = 50;
    private static final int RUNS = 5;
    private static final String OFFSET_PAGE = """
            SELECT id, entered_at FROM dlq_entries ORDER BY entered_at DESC, id DESC OFFSET ? LIMIT ?""";
    private static final String OFFSET_CLASS_PAGE = """
            SELECT id, entered_at FROM dlq_entries WHERE error_class = ? ORDER BY entered_at DESC, id DESC OFFSET ? LIMIT ?""";

    private final RedriveConfig config;
    private final int entries;
    private final PrintWriter out;

    public DlqBenchmark(RedriveConfig config, int entries, PrintWriter out) {
        this.config = config;
        this.entries = entries;
        this.out = out;
    }

    public void run() {
        try (Database database = Database.open(config, 4)) {
            database.migrate();
            Jdbc jdbc = database.jdbc();
            long present = jdbc.queryLong("SELECT count(*) FROM dlq_entries");
            if (present < entries) {
                GeneratedDlq generated = new DlqGenerator(database, Clock.systemUTC()).generate((int) (entries - present));
                out.printf(Locale.ROOT, "generated %d entries (%d attempts) in %.1f s%n", generated.entries(),
                        generated.attempts(), generated.elapsed().toMillis() / 1000.0);
            }
            long total = jdbc.queryLong("SELECT count(*) FROM dlq_entries");
            out.printf(Locale.ROOT, "namespace %s: %d DLQ entries; median of %d runs each%n", database.schema(), total, RUNS);
            out.flush();
            JdbcDlqQueries queries = new JdbcDlqQueries(database);

            int depth = (int) Math.min(total / 2, 500_000);
            DlqCursor deep = jdbc.queryOne(OFFSET_PAGE, row -> new DlqCursor(Jdbc.instant(row, "entered_at"), row.getLong("id")),
                    depth - 1, 1).orElseThrow();
            double offset = median(() -> jdbc.query(OFFSET_PAGE, row -> row.getLong(1), depth, PAGE).size());
            double keyset = median(() -> queries.page(DlqFilter.none(), deep, PageDirection.NEXT, PAGE).rows().size());
            ratio("page of " + PAGE + " at depth " + depth, "keyset", keyset, "OFFSET", offset);

            DlqFilter rateLimited = DlqFilter.none().withErrorClass(FailureClass.RATE_LIMITED);
            long classTotal = queries.exactCount(rateLimited);
            int classDepth = (int) Math.min(classTotal / 2, 200_000);
            DlqCursor classDeep = jdbc.queryOne(OFFSET_CLASS_PAGE, row -> new DlqCursor(Jdbc.instant(row, "entered_at"),
                    row.getLong("id")), FailureClass.RATE_LIMITED, classDepth - 1, 1).orElseThrow();
            double classOffset = median(() -> jdbc.query(OFFSET_CLASS_PAGE, row -> row.getLong(1), FailureClass.RATE_LIMITED,
                    classDepth, PAGE).size());
            double classKeyset = median(() -> queries.page(rateLimited, classDeep, PageDirection.NEXT, PAGE).rows().size());
            ratio("RATE_LIMITED page at depth " + classDepth, "keyset", classKeyset, "OFFSET", classOffset);

            double exact = median(() -> (int) queries.exactCount(DlqFilter.none()));
            double estimated = median(() -> (int) queries.count(DlqFilter.none()).value());
            ratio("total count", "count()", estimated, "count(*)", exact);

            DlqPage first = queries.firstPage(DlqFilter.none().withText("timed out"), PAGE);
            double text = median(() -> queries.firstPage(DlqFilter.none().withText("timed out"), PAGE).rows().size());
            ratio("first page matching \"timed out\" (" + first.rows().size() + " rows)", "text search", text, "OFFSET page at depth", offset);

            double groups = median(() -> queries.groups(DlqFilter.none()).size());
            ratio("fingerprint groups over everything", "groups", groups, "count(*)", exact);
            out.flush();
        }
    }

    private void ratio(String what, String name, double millis, String baselineName, double baselineMillis) {
        out.printf(Locale.ROOT, "%-50s %s %8.2f ms   %s %8.2f ms   ratio %.3f (%.1fx)%n", what, name, millis, baselineName,
                baselineMillis, millis / baselineMillis, baselineMillis / millis);
    }

    private static double median(Supplier<Integer> work) {
        work.get();
        double[] times = new double[RUNS];
        for (int i = 0; i < RUNS; i++) {
            long start = System.nanoTime();
            work.get();
            times[i] = (System.nanoTime() - start) / 1_000_000.0;
        }
        Arrays.sort(times);
        return times[RUNS / 2];
    }
}
