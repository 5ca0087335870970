package dev.redrive.triage.query;

import dev.redrive.model.DecisionState;
import dev.redrive.model.FailureClass;
import dev.redrive.model.SideEffectState;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.DeadLetterFixture;
import dev.redrive.bench.generate.DlqGenerator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JdbcDlqQueriesTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    // After every generated entry (those enter in the 30 days before 2026-11-30), so that a time window around the
    // incident holds the incident's entries alone.
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static DlqQueries queries;

    @BeforeAll
    static void incident() {
        queries = new JdbcDlqQueries(ns.database());
        new DlqGenerator(ns.database(), Clock.fixed(Instant.parse("2026-11-30T00:00:00Z"), ZoneOffset.UTC))
                .generate(600, "bulk");
        DeadLetterFixture fixture = new DeadLetterFixture(ns.database());
        fixture.deadLettered("inc-1", "charge-a").tool("t.alpha").errorClass(FailureClass.RATE_LIMITED)
                .message("rate limited: retry after 12 s").fingerprint("fp-rate").enteredAt(T0).create();
        fixture.deadLettered("inc-1", "charge-b").tool("t.alpha").errorClass(FailureClass.UNKNOWN_SIDE_EFFECT)
                .sideEffect(SideEffectState.POSSIBLE).message("read timed out after 5000 ms")
                .fingerprint("fp-timeout").traceId("trace-special").enteredAt(T0.plusSeconds(60)).create();
        fixture.deadLettered("inc-2", "charge-c").tool("t.beta").errorClass(FailureClass.RATE_LIMITED)
                .message("rate limited: retry after 30 s").fingerprint("fp-rate").correlationId("corr-special")
                .enteredAt(T0.plusSeconds(120)).create();
        fixture.deadLettered("inc-2", "charge-d").tool("t.beta").errorClass(FailureClass.INVALID_INPUT)
                .message("amount exceeds the per-charge limit").fingerprint("fp-invalid")
                .enteredAt(T0.plusSeconds(180)).create();
        ns.jdbc().update("UPDATE dlq_entries SET decision_state = 'DISCARDED', decided_by = 'bob', version = 1 WHERE operation_id = 'inc-2:charge-d:0'");
    }

    @Test
    void pagingForwardThenBack_visitsEveryEntryOnceInNewestFirstOrder() {
        assertPagingVisitsEveryEntryOnce(DlqOrder.NEWEST_FIRST, "entered_at DESC, id DESC");
    }

    @Test
    void pagingForwardThenBack_visitsEveryEntryOnceInOldestFirstOrder() {
        assertPagingVisitsEveryEntryOnce(DlqOrder.OLDEST_FIRST, "entered_at, id");
    }

    /** Pages of 47 from the first to the last and back see every entry once each way, in {@code orderBy}. */
    private static void assertPagingVisitsEveryEntryOnce(DlqOrder order, String orderBy) {
        List<Long> expected = ns.jdbc().query("SELECT id FROM dlq_entries ORDER BY " + orderBy, row -> row.getLong(1));

        assertThat(queries.firstPage(DlqFilter.none(), order, 47).hasPrevious()).isFalse();
        assertThat(visitForwardThenBack(queries, DlqFilter.none(), order, 47)).containsExactly(expected, expected);
    }

    @Test
    void previousPage_ofTheSecondPage_isTheFirstPage() {
        DlqPage first = queries.firstPage(DlqFilter.none(), 10);
        DlqPage second = queries.page(DlqFilter.none(), first.next(), PageDirection.NEXT, 10);

        DlqPage again = queries.page(DlqFilter.none(), second.previous(), PageDirection.PREVIOUS, 10);

        assertThat(again.rows()).isEqualTo(first.rows());
        assertThat(again.hasPrevious()).isFalse();
        assertThat(again.next()).isEqualTo(first.next());
    }

    @Test
    void eachFilter_returnsOnlyTheMatchingEntries() {
        assertThat(operations(DlqFilter.builder().tool("t.alpha").build())).containsExactly("inc-1:charge-b:0", "inc-1:charge-a:0");
        assertThat(operations(DlqFilter.builder().runId("inc-2").build())).containsExactly("inc-2:charge-d:0", "inc-2:charge-c:0");
        assertThat(operations(DlqFilter.builder().runId("inc-1").errorClass(FailureClass.RATE_LIMITED).build()))
                .containsExactly("inc-1:charge-a:0");
        assertThat(operations(DlqFilter.builder().traceOrCorrelationId("trace-special").build())).containsExactly("inc-1:charge-b:0");
        assertThat(operations(DlqFilter.builder().traceOrCorrelationId("corr-special").build())).containsExactly("inc-2:charge-c:0");
        assertThat(operations(DlqFilter.builder().enteredBetween(T0.plusSeconds(60), T0.plusSeconds(180)).build()))
                .containsExactly("inc-2:charge-c:0", "inc-1:charge-b:0");
        assertThat(operations(DlqFilter.builder().runId("inc-1").sideEffect(SideEffectState.POSSIBLE).build()))
                .containsExactly("inc-1:charge-b:0");
        assertThat(operations(DlqFilter.builder().decisionState(DecisionState.DISCARDED).runId("inc-2").build()))
                .containsExactly("inc-2:charge-d:0");
        assertThat(operations(DlqFilter.builder().fingerprint("fp-rate").build())).containsExactly("inc-2:charge-c:0", "inc-1:charge-a:0");
    }

    @Test
    void textSearch_findsWordsOfTheNormalizedErrorMessage() {
        assertThat(operations(DlqFilter.builder().text("timed out").runId("inc-1").build())).containsExactly("inc-1:charge-b:0");
        assertThat(operations(DlqFilter.builder().text("\"per-charge limit\"").tool("t.beta").build())).containsExactly("inc-2:charge-d:0");
        assertThat(operations(DlqFilter.builder().text("rate -30").runId("inc-2").build())).isEmpty();
        assertThat(operations(DlqFilter.builder().text("'; DROP TABLE dlq_entries; --").build())).isEmpty();
        assertThat(ns.jdbc().queryLong("SELECT count(*) FROM dlq_entries")).isEqualTo(604);
    }

    @Test
    void textSearch_pagesBothWaysLikeTheStraightforwardQuery_whetherItWalksTheKeysetOrAsksTheTextIndex() {
        // Over 604 entries, sampling 12, reading fewer than 20 matches from the text index and walking 40: rare phrases
        // come from the text index, frequent ones from the walk, and a phrase in between reads every match past the
        // cursor after its walk fell short, each way within one paging.
        DlqQueries narrowWalk = new JdbcDlqQueries(ns.database(), 12, 20, 40);
        for (String text : List.of("rate limited", "timed out", "oauth token expired", "\"per-charge limit\"", "-rate",
                "no-such-word")) {
            for (DlqOrder order : DlqOrder.values()) {
                DlqFilter filter = DlqFilter.builder().text(text).build();
                List<Long> expected = ns.jdbc().query("SELECT id FROM dlq_entries WHERE to_tsvector('simple', error_message) "
                        + "@@ websearch_to_tsquery('simple', ?) ORDER BY entered_at" + (order == DlqOrder.NEWEST_FIRST
                        ? " DESC, id DESC" : ", id"), row -> row.getLong(1), text);
                assertThat(visitForwardThenBack(narrowWalk, filter, order, 7)).as(text + " " + order)
                        .containsExactly(expected, expected);
                assertThat(visitForwardThenBack(queries, filter, order, 7)).as(text + " " + order)
                        .containsExactly(expected, expected);
            }
        }
    }

    @Test
    void matching_keepsTheIdsTheFilterMatches_textIncluded() {
        List<Long> incident = ns.jdbc().query("SELECT id FROM dlq_entries WHERE run_id LIKE 'inc-%' ORDER BY id", row -> row.getLong(1));
        long timedOut = ns.jdbc().queryLong("SELECT id FROM dlq_entries WHERE operation_id = 'inc-1:charge-b:0'");

        assertThat(queries.matching(DlqFilter.builder().text("timed out").build(), incident)).containsExactly(timedOut);
        assertThat(queries.matching(DlqFilter.builder().runId("inc-2").decisionState(DecisionState.OPEN).build(), incident))
                .hasSize(1);
        assertThat(queries.matching(DlqFilter.none(), List.of(-1L))).isEmpty();
        assertThat(queries.matching(DlqFilter.none(), List.of())).isEmpty();
    }

    @Test
    void groups_countEntriesOpenEntriesAndClassesPerFingerprint() {
        List<FingerprintGroup> groups = queries.groups(DlqFilter.builder().tool("t.beta").decisionState(null).build());
        assertThat(groups).extracting(FingerprintGroup::fingerprint).containsExactlyInAnyOrder("fp-rate", "fp-invalid");
        FingerprintGroup invalid = groups.stream().filter(g -> g.fingerprint().equals("fp-invalid")).findFirst().orElseThrow();
        assertThat(invalid.count()).isEqualTo(1);
        assertThat(invalid.openCount()).isZero();
        assertThat(invalid.classes()).containsExactly(FailureClass.INVALID_INPUT);

        FingerprintGroup rate = queries.groups(DlqFilter.builder().fingerprint("fp-rate").build()).get(0);
        assertThat(rate.count()).isEqualTo(2);
        assertThat(rate.openCount()).isEqualTo(2);
        assertThat(rate.firstSeen()).isEqualTo(T0);
        assertThat(rate.lastSeen()).isEqualTo(T0.plusSeconds(120));
        assertThat(rate.sampleMessage()).isEqualTo("rate limited: retry after 30 s");

        List<FingerprintGroup> all = queries.groups(DlqFilter.none());
        assertThat(all.stream().mapToLong(FingerprintGroup::count).sum()).isEqualTo(604);
        assertThat(all).isSortedAccordingTo((a, b) -> Long.compare(b.count(), a.count()));
    }

    @Test
    void count_isExactForASmallSelection() {
        assertThat(queries.count(DlqFilter.none())).isEqualTo(DlqCount.exact(604));
        assertThat(queries.count(DlqFilter.builder().runId("inc-1").build())).isEqualTo(DlqCount.exact(2));
    }

    @Test
    void badPageSizeOrTimeRange_isRefusedWithWhatIsWrong() {
        assertThatThrownBy(() -> queries.firstPage(DlqFilter.none(), 0)).hasMessageContaining("page size");
        assertThatThrownBy(() -> DlqFilter.builder().enteredBetween(T0, T0).build()).hasMessageContaining("time range is empty");
        assertThatThrownBy(() -> DlqCursor.parse("yesterday")).hasMessageContaining("a cursor looks like");
        DlqCursor cursor = new DlqCursor(T0, 42);
        assertThat(DlqCursor.parse(cursor.token())).isEqualTo(cursor);
    }

    /** Every id from the first page to the last, then every id from the last page back to the first. */
    private static List<List<Long>> visitForwardThenBack(DlqQueries queries, DlqFilter filter, DlqOrder order, int limit) {
        List<DlqPage> pages = new ArrayList<>();
        DlqPage page = queries.firstPage(filter, order, limit);
        pages.add(page);
        while (page.hasNext()) {
            page = queries.page(filter, order, page.next(), PageDirection.NEXT, limit);
            pages.add(page);
        }
        assertThat(page.hasMore()).as("more beyond the last page").isFalse();
        List<Long> forward = pages.stream().flatMap(p -> p.rows().stream()).map(DlqRow::id).toList();
        List<Long> backwards = new ArrayList<>(page.rows().stream().map(DlqRow::id).toList());
        while (page.hasPrevious()) {
            page = queries.page(filter, order, page.previous(), PageDirection.PREVIOUS, limit);
            backwards.addAll(0, page.rows().stream().map(DlqRow::id).toList());
        }
        return List.of(forward, backwards);
    }

    private static List<String> operations(DlqFilter filter) {
        List<String> ids = queries.firstPage(filter, 100).rows().stream().map(DlqRow::operationId).toList();
        return ids;
    }
}
