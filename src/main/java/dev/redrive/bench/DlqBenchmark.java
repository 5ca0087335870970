package dev.redrive.bench;

import dev.redrive.config.RedriveConfig;
import dev.redrive.health.DlqDepth;
import dev.redrive.model.DecisionState;
import dev.redrive.model.FailureClass;
import dev.redrive.store.Database;
import dev.redrive.store.Jdbc;
import dev.redrive.bench.generate.DlqGenerator;
import dev.redrive.bench.generate.GeneratedDlq;
import dev.redrive.triage.query.DlqCursor;
import dev.redrive.triage.query.DlqFilter;
import dev.redrive.triage.query.JdbcDlqQueries;
import dev.redrive.triage.query.PageDirection;

import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Every query an operator's console and CLI run on the DLQ, at scale: p50 and p95 of each, and where an older or
 * plainer way to answer it exists, that way measured in the same run on the same data, alternating which goes first.
 * The namespace is filled by the generator up to the asked size and kept for the next run.
 */
public final class DlqBenchmark {
    /** Rows per page, as the console asks them. */
    private static final int PAGE = 100;

    // The shapes the queries had before the summary, the text walk and the capped count: the baselines.
    private static final String OFFSET_PAGE = """
            SELECT id, entered_at FROM dlq_entries ORDER BY entered_at DESC, id DESC OFFSET ? LIMIT ?""";
    private static final String PLANNED_TEXT_PAGE = """
            SELECT * FROM dlq_entries
             WHERE to_tsvector('simple', error_message) @@ websearch_to_tsquery('simple', ?)
             ORDER BY entered_at DESC, id DESC LIMIT ?""";
    private static final String EXACT_TEXT_COUNT = """
            SELECT count(*) FROM dlq_entries WHERE to_tsvector('simple', error_message) @@ websearch_to_tsquery('simple', ?)""";
    private static final String AGGREGATED_GROUPS = """
            SELECT g.*,
                   (SELECT s.error_message FROM dlq_entries s WHERE s.error_fingerprint = g.error_fingerprint
                     ORDER BY s.entered_at DESC, s.id DESC LIMIT 1) AS sample_message
            FROM (SELECT error_fingerprint, min(tool) AS tool, %s, count(*) AS total,
                         count(*) FILTER (WHERE decision_state = 'OPEN') AS open,
                         min(entered_at) AS first_seen, max(entered_at) AS last_seen
                  FROM dlq_entries GROUP BY error_fingerprint) g
            ORDER BY g.total DESC, g.last_seen DESC, g.error_fingerprint""".formatted(Arrays.stream(FailureClass.values())
            .map(failureClass -> "bool_or(error_class = '" + failureClass.name() + "')")
            .collect(Collectors.joining(", ")));
    private static final String COUNTED_DEPTH = """
            SELECT (SELECT count(*) FROM dlq_entries WHERE decision_state = 'OPEN')         AS open_count,
                   (SELECT count(*) FROM dlq_entries WHERE entered_at >= ?)                 AS last_minute,
                   (SELECT count(*) FROM dlq_entries WHERE entered_at >= ?)                 AS last_hour,
                   (SELECT min(entered_at) FROM dlq_entries WHERE decision_state = 'OPEN') AS oldest_open""";

    /** A phrase of each frequency the generated errors have: ~9%, ~5.5% of the entries, and a number few carry. */
    private static final List<String> PHRASES = List.of("timed out", "oauth token expired", "4242");

    private final RedriveConfig config;
    private final int entries;
    private final int runs;
    private final PrintWriter out;

    public DlqBenchmark(RedriveConfig config, int entries, int runs, PrintWriter out) {
        this.config = config;
        this.entries = entries;
        this.runs = runs;
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
            out.printf(Locale.ROOT, "namespace %s: %d DLQ entries; %d runs of each query, p50 and p95 in ms; load average %s%n",
                    database.schema(), total, runs, LoadAverage.now());
            out.flush();
            measure(jdbc, new JdbcDlqQueries(database), total);
            out.printf(Locale.ROOT, "load average at the end %s%n", LoadAverage.now());
            out.flush();
        }
    }

    private void measure(Jdbc jdbc, JdbcDlqQueries queries, long total) {
        Timing firstPage = time(() -> queries.firstPage(DlqFilter.none(), PAGE));
        report("first page", firstPage, null, null);
        DlqFilter rateLimited = DlqFilter.builder().errorClass(FailureClass.RATE_LIMITED).build();
        report("first page of class RATE_LIMITED", time(() -> queries.firstPage(rateLimited, PAGE)), null, null);

        int depth = (int) Math.min(total / 2, 500_000);
        DlqCursor deep = jdbc.queryOne(OFFSET_PAGE, row -> new DlqCursor(Jdbc.instant(row, "entered_at"), row.getLong("id")),
                depth - 1, 1).orElseThrow();
        Timing[] paging = alternate(() -> queries.page(DlqFilter.none(), deep, PageDirection.NEXT, PAGE),
                () -> jdbc.query(OFFSET_PAGE, row -> row.getLong(1), depth, PAGE));
        report("page at depth " + depth, paging[0], "OFFSET", paging[1]);

        for (String phrase : PHRASES) {
            DlqFilter text = DlqFilter.builder().text(phrase).build();
            long matches = queries.exactCount(text);
            String what = String.format(Locale.ROOT, "text \"%s\" (%.3f%% of entries)", phrase, 100.0 * matches / total);
            Timing[] page = alternate(() -> queries.firstPage(text, PAGE),
                    () -> jdbc.query(PLANNED_TEXT_PAGE, row -> row.getLong(1), phrase, PAGE + 1));
            report(what + " first page", page[0], "planner's plan", page[1]);
            Timing[] count = alternate(() -> queries.count(text), () -> jdbc.queryLong(EXACT_TEXT_COUNT, phrase));
            report(what + " count " + queries.count(text).display(), count[0], "count(*)", count[1]);
        }
        DlqFilter textInClass = DlqFilter.builder().text(PHRASES.get(1)).errorClass(FailureClass.PERMISSION).build();
        report("text \"" + PHRASES.get(1) + "\" + class PERMISSION first page", time(() -> queries.firstPage(textInClass, PAGE)),
                null, null);
        report("text \"" + PHRASES.get(1) + "\" page at depth " + depth,
                time(() -> queries.page(DlqFilter.builder().text(PHRASES.get(1)).build(), deep, PageDirection.NEXT, PAGE)), null, null);

        Timing[] groups = alternate(() -> queries.groups(DlqFilter.none()), () -> jdbc.query(AGGREGATED_GROUPS, row -> row.getLong("total")));
        report("fingerprint groups", groups[0], "aggregating entries", groups[1]);
        report("fingerprint groups of open entries",
                time(() -> queries.groups(DlqFilter.builder().decisionState(DecisionState.OPEN).build())), null, null);

        Instant now = Instant.now();
        Timing[] depthCounts = alternate(() -> DlqDepth.read(jdbc, now), () -> jdbc.queryOne(COUNTED_DEPTH,
                row -> row.getLong(1), now.minus(Duration.ofMinutes(1)), now.minus(Duration.ofHours(1))));
        report("queue health DLQ counts", depthCounts[0], "counting entries", depthCounts[1]);

        List<Long> arrived = jdbc.query("SELECT id FROM dlq_entries ORDER BY id DESC LIMIT 100", row -> row.getLong(1));
        report("which of 100 new entries match a text filter",
                time(() -> queries.matching(DlqFilter.builder().text(PHRASES.get(1)).build(), arrived)), null, null);
    }

    private void report(String what, Timing timing, String baselineName, Timing baseline) {
        if (baseline == null) {
            out.printf(Locale.ROOT, "%-62s p50 %8.2f  p95 %8.2f%n", what, timing.p50(), timing.p95());
        } else {
            double speedUp = baseline.p95() / timing.p95();
            // A rare phrase's page is slower than the plainer plan (it asks the full-text index after a short walk):
            // "0.1x faster" would hide that, so it reads as what it is.
            String verdict = speedUp >= 1 ? String.format(Locale.ROOT, "%.1fx faster", speedUp)
                    : String.format(Locale.ROOT, "%.1fx slower", 1 / speedUp);
            out.printf(Locale.ROOT, "%-62s p50 %8.2f  p95 %8.2f   %s p50 %8.2f  p95 %8.2f   p95 %s%n", what,
                    timing.p50(), timing.p95(), baselineName, baseline.p50(), baseline.p95(), verdict);
        }
        out.flush();
    }

    /** p50 and p95 of one query's times in milliseconds. */
    private record Timing(double p50, double p95) {
        static Timing of(double[] millis) {
            double[] sorted = millis.clone();
            Arrays.sort(sorted);
            return new Timing(rank(sorted, 0.50), rank(sorted, 0.95));
        }

        /** The nearest-rank percentile. */
        private static double rank(double[] sorted, double percentile) {
            int index = (int) Math.ceil(percentile * sorted.length) - 1;
            return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
        }
    }

    private Timing time(Runnable query) {
        query.run();
        double[] millis = new double[runs];
        for (int i = 0; i < runs; i++) {
            millis[i] = millis(query);
        }
        return Timing.of(millis);
    }

    /** Both queries {@link #runs} times, taking turns at going first, after one warm-up each. */
    private Timing[] alternate(Runnable query, Runnable baseline) {
        query.run();
        baseline.run();
        double[] queryMillis = new double[runs];
        double[] baselineMillis = new double[runs];
        for (int i = 0; i < runs; i++) {
            if (i % 2 == 0) {
                queryMillis[i] = millis(query);
                baselineMillis[i] = millis(baseline);
            } else {
                baselineMillis[i] = millis(baseline);
                queryMillis[i] = millis(query);
            }
        }
        return new Timing[]{Timing.of(queryMillis), Timing.of(baselineMillis)};
    }

    private static double millis(Runnable query) {
        long start = System.nanoTime();
        query.run();
        return (System.nanoTime() - start) / 1_000_000.0;
    }
}
