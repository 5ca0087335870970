package dev.redrive.console.dlq;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.health.DlqEventTail;
import dev.redrive.health.DlqFixture;
import dev.redrive.model.FailureClass;
import dev.redrive.model.SideEffectState;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.query.DlqOrder;
import dev.redrive.triage.query.DlqRow;
import dev.redrive.triage.query.FingerprintGroup;
import dev.redrive.triage.query.JdbcDlqQueries;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class DlqBrowserViewModelTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();
    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

    @BeforeAll
    static void seed() {
        DlqFixture.insert(ns.database(), "run-a", 1_500, "TRANSIENT", "demo.charge", "fp-transient", "NONE", "OPEN",
                NOW.minusSeconds(10));
        DlqFixture.insert(ns.database(), "run-b", 40, "PERMISSION", "crm.sync", "fp-permission", "NONE", "OPEN",
                NOW.minusSeconds(5));
        DlqFixture.insert(ns.database(), "run-c", 7, "UNKNOWN_SIDE_EFFECT", "demo.charge", "fp-possible", "POSSIBLE",
                "OPEN", NOW.minusSeconds(1));
    }

    private DlqBrowserViewModel model(DlqBrowserViewModel.LiveEvents live) {
        return new DlqBrowserViewModel(new JdbcDlqQueries(ns.database()), live, UiExecutor.inline(),
                Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @Test
    void filterByClassShowsOnlyMatchingRows() {
        DlqBrowserViewModel model = model(List::of);

        model.errorClassProperty().set(FailureClass.PERMISSION);
        model.applyFilter();

        assertThat(model.rows()).hasSize(40).allMatch(row -> row.errorClass() == FailureClass.PERMISSION);
        assertThat(model.countTextProperty().get()).isEqualTo("40 entries");
        assertThat(model.hasNextProperty().get()).isFalse();
        model.setGrouped(true);
        assertThat(model.countTextProperty().get()).isEqualTo("1 group · 40 entries");
    }

    @Test
    void scrollingDownAndBackUpPagesByKeysetAndHoldsABoundedWindow() {
        DlqBrowserViewModel model = model(List::of);
        model.applyFilter();
        Set<Long> seen = new HashSet<>();
        List<DlqRow> first = List.copyOf(model.rows());

        while (model.hasNextProperty().get()) {
            model.rows().forEach(row -> seen.add(row.id()));
            model.onVisibleRange(model.rows().size() - 20, model.rows().size() - 1);
            assertThat(model.rows().size()).isLessThanOrEqualTo(DlqBrowserViewModel.MAX_ROWS);
        }
        model.rows().forEach(row -> seen.add(row.id()));
        assertThat(seen).hasSize(1_547);
        assertThat(model.hasPreviousProperty().get()).isTrue();
        assertThat(isNewestFirst(model.rows())).isTrue();

        while (model.hasPreviousProperty().get()) {
            model.onVisibleRange(0, 20);
        }
        assertThat(model.rows().subList(0, first.size())).containsExactlyElementsOf(first);
        assertThat(model.mostRowsHeldProperty().get()).isLessThanOrEqualTo(DlqBrowserViewModel.MAX_ROWS);
    }

    @Test
    void oldestFirstStartsAtTheOldestEntryAndScrollsByKeysetInThatOrder() {
        DlqBrowserViewModel model = model(List::of);
        model.applyFilter();
        long oldest = ns.database().jdbc().queryLong("SELECT id FROM dlq_entries ORDER BY entered_at, id LIMIT 1");

        model.setOrder(DlqOrder.OLDEST_FIRST);

        assertThat(model.rows().get(0).id()).isEqualTo(oldest);
        List<DlqRow> first = List.copyOf(model.rows());
        List<Long> visited = new ArrayList<>(model.rows().stream().map(DlqRow::id).toList());
        while (model.hasNextProperty().get()) {
            DlqRow last = model.rows().get(model.rows().size() - 1);
            model.onVisibleRange(model.rows().size() - 20, model.rows().size() - 1);
            int after = model.rows().indexOf(last) + 1;
            visited.addAll(model.rows().subList(after, model.rows().size()).stream().map(DlqRow::id).toList());
            assertThat(model.rows().size()).isLessThanOrEqualTo(DlqBrowserViewModel.MAX_ROWS);
            assertThat(isOldestFirst(model.rows())).isTrue();
        }
        assertThat(visited).isEqualTo(ns.database().jdbc().query("SELECT id FROM dlq_entries ORDER BY entered_at, id",
                row -> row.getLong(1)));

        while (model.hasPreviousProperty().get()) {
            model.onVisibleRange(0, 20);
        }
        assertThat(model.rows().subList(0, first.size())).containsExactlyElementsOf(first);
        model.setOrder(DlqOrder.NEWEST_FIRST);
        assertThat(isNewestFirst(model.rows())).isTrue();
        assertThat(model.rows().get(0).id()).isEqualTo(
                ns.database().jdbc().queryLong("SELECT id FROM dlq_entries ORDER BY entered_at DESC, id DESC LIMIT 1"));
    }

    @Test
    void oldestFirst_newEntriesWaitPastTheLastRowWithoutMovingTheList() {
        DlqEventTail tail = new DlqEventTail(ns.redis());
        DlqBrowserViewModel model = model(tail::poll);
        model.errorClassProperty().set(FailureClass.PERMISSION);
        model.applyFilter();
        model.setOrder(DlqOrder.OLDEST_FIRST);
        model.pollLive();
        List<DlqRow> before = List.copyOf(model.rows());
        assertThat(model.hasNextProperty().get()).isFalse();
        List<Long> arrived = insertLive(1, "fp-live-new", NOW);
        announce(arrived);
        model.pollLive();

        assertThat(model.newTextProperty().get()).isEqualTo("1 new");
        assertThat(model.rows()).containsExactlyElementsOf(before);
        assertThat(model.hasNextProperty().get()).isTrue();
        model.showNew();
        assertThat(model.newCountProperty().get()).isZero();
        assertThat(model.rows()).startsWith(before.toArray(DlqRow[]::new)).last().extracting(DlqRow::id)
                .isEqualTo(arrived.get(0));
        assertThat(model.hasNextProperty().get()).isFalse();
    }

    /** Entries of run "run-live" (older ones first, then those the tests announce as new); removed after each test. */
    private static List<Long> insertLive(int count, String fingerprint, Instant newest) {
        DlqFixture.insert(ns.database(), "run-live", count, "PERMISSION", "crm.sync", fingerprint, "NONE", "OPEN", newest);
        return ns.database().jdbc().query("SELECT id FROM dlq_entries WHERE error_fingerprint = ? ORDER BY entered_at, id",
                row -> row.getLong(1), fingerprint);
    }

    /** Announces entries on the DLQ event stream, as the worker does when it dead-letters them. */
    private static void announce(List<Long> ids) {
        announce(ids, "fp-live-new");
    }

    private static void announce(List<Long> ids, String fingerprint) {
        for (long id : ids) {
            ns.redis().sync().xadd(ns.redis().keys().dlq(), Map.of("dlq_entry_id", String.valueOf(id),
                    "operation_id", "run-live:node-" + id + ":0", "error_class", "PERMISSION", "tool", "crm.sync",
                    "fingerprint", fingerprint, "entered_at", NOW.toString()));
        }
    }

    /** Removes what the live tests add: the entries of run-live and of run-live-known. */
    @AfterEach
    void removeLive() {
        ns.database().jdbc().update("DELETE FROM dlq_entries WHERE run_id IN ('run-live', 'run-live-known')");
    }

    private DlqBrowserViewModel oldestFirstOverRunLive(DlqEventTail tail) {
        DlqBrowserViewModel model = model(tail::poll);
        model.runIdProperty().set("run-live");
        model.applyFilter();
        model.setOrder(DlqOrder.OLDEST_FIRST);
        model.pollLive();
        return model;
    }

    @Test
    void oldestFirst_theNewCountGoesDownAsTheOperatorScrollsTheNewEntriesIntoView() {
        insertLive(60, "fp-live-old", NOW.minusSeconds(30));
        DlqBrowserViewModel model = oldestFirstOverRunLive(new DlqEventTail(ns.redis()));
        model.onVisibleRange(0, 19);
        List<Long> arrived = insertLive(2, "fp-live-new", NOW);
        announce(arrived);
        model.pollLive();
        assertThat(model.newTextProperty().get()).isEqualTo("2 new");
        assertThat(model.rows()).hasSize(60);

        model.onVisibleRange(40, 59);
        assertThat(model.rows()).hasSize(62).extracting(DlqRow::id).endsWith(arrived.toArray(Long[]::new));
        assertThat(model.newTextProperty().get()).isEqualTo("2 new");

        model.onVisibleRange(41, 60);
        assertThat(model.newTextProperty().get()).isEqualTo("1 new");
        model.onVisibleRange(42, 61);
        assertThat(model.newCountProperty().get()).isZero();
        assertThat(model.newTextProperty().get()).isEmpty();
    }

    @Test
    void oldestFirst_newEntriesArriveAtTheBottomOfAnOperatorWhoIsAlreadyThere() {
        insertLive(60, "fp-live-old", NOW.minusSeconds(30));
        DlqBrowserViewModel model = oldestFirstOverRunLive(new DlqEventTail(ns.redis()));
        model.onVisibleRange(40, 59);
        List<Long> arrived = insertLive(1, "fp-live-new", NOW);
        announce(arrived);

        model.pollLive();

        assertThat(model.rows()).hasSize(61).last().extracting(DlqRow::id).isEqualTo(arrived.get(0));
        assertThat(model.newTextProperty().get()).isEqualTo("1 new");
        model.onVisibleRange(41, 60);
        assertThat(model.newCountProperty().get()).isZero();
    }

    @Test
    void oldestFirst_showNewPointsTheTableAtTheFirstNewEntryAtTheEnd() {
        insertLive(150, "fp-live-old", NOW.minusSeconds(30));
        DlqBrowserViewModel model = oldestFirstOverRunLive(new DlqEventTail(ns.redis()));
        model.onVisibleRange(0, 19);
        List<Long> arrived = insertLive(3, "fp-live-new", NOW);
        announce(arrived);
        model.pollLive();

        model.showNew();

        assertThat(model.newCountProperty().get()).isZero();
        assertThat(model.rows()).hasSize(DlqBrowserViewModel.PAGE_SIZE).extracting(DlqRow::id)
                .endsWith(arrived.toArray(Long[]::new));
        assertThat(isOldestFirst(model.rows())).isTrue();
        assertThat(model.firstNewProperty().get().id()).isEqualTo(arrived.get(0));
        assertThat(model.hasPreviousProperty().get()).isTrue();
    }

    @Test
    void openingAGroupNarrowsTheListToItsFingerprint() {
        DlqBrowserViewModel model = model(List::of);
        model.setGrouped(true);
        model.applyFilter();
        assertThat(model.groups()).extracting(FingerprintGroup::fingerprint)
                .containsExactly("fp-transient", "fp-permission", "fp-possible");

        model.openGroup(model.groups().get(2));

        assertThat(model.groupedProperty().get()).isFalse();
        assertThat(model.rows()).hasSize(7).allMatch(row -> row.fingerprint().equals("fp-possible"));
        model.closeGroup();
        assertThat(model.rows()).hasSize(DlqBrowserViewModel.PAGE_SIZE);
    }

    @Test
    void aFailureGroupThatStartsWhileWatched_isToldOnce_andMoreOfAKnownGroupIsNot() {
        DlqEventTail tail = new DlqEventTail(ns.redis());
        DlqBrowserViewModel model = model(tail::poll);
        List<NewGroup> told = new ArrayList<>();
        model.onNewGroup(told::add);
        model.applyFilter();
        model.pollLive();
        DlqFixture.insert(ns.database(), "run-live-known", 2, "PERMISSION", "crm.sync", "fp-permission", "NONE",
                "OPEN", NOW);
        announce(ns.database().jdbc().query("SELECT id FROM dlq_entries WHERE run_id = 'run-live-known'",
                row -> row.getLong(1)), "fp-permission");
        List<Long> started = insertLive(3, "fp-live-started", NOW);
        announce(started, "fp-live-started");
        model.pollLive();

        assertThat(told).containsExactly(new NewGroup("fp-live-started", "crm.sync", "PERMISSION", 3));
        assertThat(told.get(0).describe()).isEqualTo("3 entries of crm.sync failing PERMISSION, fingerprint fp-live-started");

        DlqFixture.insert(ns.database(), "run-live-known", 2, "PERMISSION", "crm.sync", "fp-live-started", "NONE",
                "OPEN", NOW.plusSeconds(1));
        announce(ns.database().jdbc().query("SELECT id FROM dlq_entries WHERE run_id = 'run-live-known' "
                + "AND error_fingerprint = 'fp-live-started'", row -> row.getLong(1)), "fp-live-started");
        model.pollLive();
        assertThat(told).as("more of a group already told").hasSize(1);
    }

    @Test
    void newDlqEventsRaiseTheIndicatorWithoutMovingTheList() {
        DlqEventTail tail = new DlqEventTail(ns.redis());
        DlqBrowserViewModel model = model(tail::poll);
        model.errorClassProperty().set(FailureClass.PERMISSION);
        model.applyFilter();
        model.pollLive();
        List<DlqRow> before = List.copyOf(model.rows());
        List<Long> permission = insertLive(1, "fp-live-new", NOW);
        DlqFixture.insert(ns.database(), "run-live", 1, "TRANSIENT", "crm.sync", "fp-live-other", "NONE", "OPEN", NOW);
        announce(permission);
        announce(ns.database().jdbc().query("SELECT id FROM dlq_entries WHERE error_fingerprint = 'fp-live-other'",
                row -> row.getLong(1)));
        model.pollLive();

        assertThat(model.newTextProperty().get()).isEqualTo("1 new");
        assertThat(model.rows()).containsExactlyElementsOf(before);
        model.showNew();
        assertThat(model.newCountProperty().get()).isZero();
        assertThat(model.firstNewProperty().get()).isEqualTo(model.rows().get(0));
        assertThat(model.rows().get(0).id()).isEqualTo(permission.get(0));
    }

    @Test
    void theNewCount_countsOnlyTheArrivalsThatTheFreeTextAndSideEffectFiltersMatch() {
        DlqEventTail tail = new DlqEventTail(ns.redis());
        DlqBrowserViewModel model = model(tail::poll);
        model.textProperty().set("order 2");
        model.applyFilter();
        model.pollLive();
        // "charge failed for order 1", "... order 2", "... order 3": one of the three matches the text.
        announce(insertLive(3, "fp-live-new", NOW));
        model.pollLive();
        assertThat(model.newTextProperty().get()).isEqualTo("1 new");

        model.textProperty().set("");
        model.sideEffectProperty().set(SideEffectState.POSSIBLE);
        model.applyFilter();
        model.pollLive();
        DlqFixture.insert(ns.database(), "run-live", 2, "UNKNOWN_SIDE_EFFECT", "demo.charge", "fp-live-possible",
                "POSSIBLE", "OPEN", NOW);
        announce(ns.database().jdbc().query("SELECT id FROM dlq_entries WHERE error_fingerprint = 'fp-live-possible'",
                row -> row.getLong(1)));
        announce(insertLive(4, "fp-live-more", NOW));
        model.pollLive();
        assertThat(model.newTextProperty().get()).isEqualTo("2 new");
    }

    @Test
    void freeTextSearchesTheNormalizedErrors() {
        DlqBrowserViewModel model = model(List::of);
        model.applyFilter();
        model.textProperty().set("order 17");

        model.applyFilter();

        assertThat(model.rows()).extracting(DlqRow::errorMessage).contains("charge failed for order 17");
        assertThat(model.filterErrorProperty().get()).isEmpty();
    }

    private static boolean isOldestFirst(List<DlqRow> rows) {
        List<DlqRow> reversed = new ArrayList<>(rows);
        Collections.reverse(reversed);
        return isNewestFirst(reversed);
    }

    private static boolean isNewestFirst(List<DlqRow> rows) {
        for (int i = 1; i < rows.size(); i++) {
            DlqRow previous = rows.get(i - 1);
            DlqRow row = rows.get(i);
            int order = row.enteredAt().compareTo(previous.enteredAt());
            if (order > 0 || order == 0 && row.id() > previous.id()) {
                return false;
            }
        }
        return true;
    }
}
