package dev.redrive.triage.query;

import dev.redrive.model.DecisionState;
import dev.redrive.model.FailureClass;
import dev.redrive.model.SideEffectState;
import dev.redrive.testing.TestNamespace;
import dev.redrive.bench.generate.DlqGenerator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The console's queries on a 200k-entry namespace: every one is answered from an index, never a full scan. */
class DlqIndexUsageTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final Instant NOW = Instant.parse("2026-11-30T00:00:00Z");
    private static JdbcDlqQueries queries;
    private static DlqRow deep;
    private static DlqRow sample;

    @BeforeAll
    static void twoHundredThousandEntries() {
        // A count's sample is scaled by the planner's row count, which an autovacuum run after the generator's own
        // VACUUM ANALYZE would change between two counts (the inserts' statistics can reach the server after it).
        ns.database().jdbc().update("ALTER TABLE dlq_entries SET (autovacuum_enabled = false)");
        new DlqGenerator(ns.database(), Clock.fixed(NOW, ZoneOffset.UTC)).generate(200_000, "big");
        queries = new JdbcDlqQueries(ns.database());
        sample = queries.firstPage(DlqFilter.none(), 1).rows().get(0);
        deep = queries.firstPage(DlqFilter.builder().enteredBetween(NOW.minusSeconds(20L * 24 * 3600), NOW).build(), 1).rows().get(0);
    }

    private static Map<String, DlqFilter> filters() {
        Map<String, DlqFilter> filters = new LinkedHashMap<>();
        filters.put("none", DlqFilter.none());
        filters.put("class", DlqFilter.builder().errorClass(FailureClass.PERMISSION).build());
        filters.put("tool", DlqFilter.builder().tool("mail.send").build());
        filters.put("run", DlqFilter.builder().runId(sample.runId()).build());
        filters.put("trace", DlqFilter.builder().traceOrCorrelationId(sample.traceId()).build());
        filters.put("correlation", DlqFilter.builder().traceOrCorrelationId(sample.correlationId()).build());
        filters.put("time", DlqFilter.builder().enteredBetween(NOW.minusSeconds(3600), NOW).build());
        filters.put("side effect", DlqFilter.builder().sideEffect(SideEffectState.POSSIBLE).build());
        filters.put("decision", DlqFilter.builder().decisionState(DecisionState.DISCARDED).build());
        filters.put("text", DlqFilter.builder().text("oauth token").build());
        filters.put("fingerprint", DlqFilter.builder().fingerprint(sample.fingerprint()).build());
        filters.put("class+tool+open", DlqFilter.builder().errorClass(FailureClass.RATE_LIMITED).tool("demo.charge")
                .decisionState(DecisionState.OPEN).build());
        return filters;
    }

    @Test
    void everyFilteredPage_inBothOrdersBothDirectionsAndDeep_usesAnIndex() {
        for (DlqOrder order : DlqOrder.values()) {
            filters().forEach((name, filter) -> {
                String what = name + " " + order + " ";
                assertPageIndexed(what + "first page", filter, order, null, PageDirection.NEXT);
                assertPageIndexed(what + "next page", filter, order, deep.cursor(), PageDirection.NEXT);
                assertPageIndexed(what + "previous page", filter, order, deep.cursor(), PageDirection.PREVIOUS);
            });
        }
    }

    @Test
    void selectiveCountsAndGroups_useAnIndexOrTheSummary() {
        for (String name : new String[]{"class", "run", "trace", "time", "decision", "text", "fingerprint"}) {
            DlqFilter filter = filters().get(name);
            assertIndexed(name + " count", queries.countStatement(filter));
            assertIndexed(name + " groups", queries.groupsStatement(filter));
        }
    }

    @Test
    void groupsAndCountsFromTheSummary_areWhatAggregatingTheEntriesGives() {
        for (String name : new String[]{"none", "class", "tool", "decision", "fingerprint", "class+tool+open"}) {
            DlqFilter filter = filters().get(name);
            assertThat(queries.countStatement(filter).sql()).as(name).contains("dlq_summary");
            assertThat(queries.groups(filter)).as(name).isEqualTo(queries.groups(queries.entryGroupsStatement(filter)));
            long counted = ns.database().jdbc().queryLong("SELECT count(*) FROM dlq_entries" + DlqWhere.of(filter).sql(),
                    DlqWhere.of(filter).params());
            assertThat(queries.count(filter)).as(name).isEqualTo(DlqCount.exact(counted));
        }
    }

    @Test
    void aCommonPhrasesCount_isEstimatedFromASample_aRarerOnesCountedToTheCap_andIsExactBelowIt() {
        DlqFilter common = DlqFilter.builder().text("timed out").build();
        DlqCount count = queries.count(common);
        long exact = queries.exactCount(common);

        assertThat(exact).as("the phrase is common").isGreaterThan(JdbcDlqQueries.ESTIMATE_ONLY_ABOVE * 3 / 2);
        assertThat(count.precision()).isEqualTo(DlqCount.Precision.ESTIMATE);
        // 3,000 of 200,000 entries sampled: a phrase of a few percent is estimated to within a fifth or so.
        assertThat(count.value()).isBetween(Math.round(exact * 0.75), Math.round(exact * 1.25));
        assertThat(count.display()).matches("~\\d+k");
        assertThat(queries.count(common)).as("the same pages every time").isEqualTo(count);

        // The entries of a few days out of thirty: more than the cap, too few for the sample to stand alone.
        DlqFilter middling = DlqFilter.builder().text("oauth token expired")
                .enteredBetween(NOW.minusSeconds(6L * 24 * 3600), NOW).build();
        assertThat(queries.exactCount(middling)).isBetween(JdbcDlqQueries.TEXT_COUNT_CAP + 100,
                JdbcDlqQueries.ESTIMATE_ONLY_ABOVE / 2);
        DlqCount middlingCount = queries.count(middling);
        assertThat(middlingCount.precision()).isEqualTo(DlqCount.Precision.AT_LEAST);
        assertThat(middlingCount.value()).isEqualTo(JdbcDlqQueries.TEXT_COUNT_CAP);
        assertThat(middlingCount.display()).matches("1,000\\+ \\(~\\d+k?\\)");
        DlqFilter rare = DlqFilter.builder().text("timed out").runId(sample.runId()).build();
        assertThat(queries.count(rare)).isEqualTo(DlqCount.exact(queries.exactCount(rare)));
    }

    @Test
    void aLargeCountOutsideTheSummary_isTheEstimate_andAPageDeepInTheQueue_isAsFastAsTheFirst() {
        DlqCount count = queries.count(DlqFilter.builder().enteredBetween(NOW.minusSeconds(40L * 24 * 3600), NOW).build());
        assertThat(count.precision()).isEqualTo(DlqCount.Precision.ESTIMATE);
        assertThat(count.value()).isBetween(150_000L, 250_000L);

        DlqPage page = queries.page(DlqFilter.none(), deep.cursor(), PageDirection.NEXT, 100);
        assertThat(page.rows()).hasSize(100);
        assertThat(page.rows().get(0).enteredAt()).isBeforeOrEqualTo(deep.enteredAt());
    }

    /** The statements a page runs: a text search asks the text index for a few matches, then walks the keyset order. */
    private static void assertPageIndexed(String what, DlqFilter filter, DlqOrder order, DlqCursor cursor, PageDirection direction) {
        if (filter.text() == null) {
            assertIndexed(what, queries.pageStatement(filter, order, cursor, direction, 50));
            return;
        }
        assertIndexed(what + " (walk)", queries.textWalkStatement(filter, order, cursor, direction, 50, JdbcDlqQueries.TEXT_WALK_WINDOW));
        assertIndexed(what + " (text index)", queries.textMatchesStatement(filter, order, cursor, direction, 50,
                JdbcDlqQueries.TEXT_FEW_MATCHES));
    }

    private static void assertIndexed(String what, JdbcDlqQueries.Statement statement) {
        String plan = queries.plan(statement);
        assertThat(plan).as(what + ":\n" + plan).doesNotContain("Seq Scan on dlq_entries");
    }
}
