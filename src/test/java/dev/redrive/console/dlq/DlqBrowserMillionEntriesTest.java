package dev.redrive.console.dlq;

import dev.redrive.console.ThemedStage;
import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.ui.Theme;
import dev.redrive.health.DlqFixture;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.query.DlqRow;
import dev.redrive.triage.query.JdbcDlqQueries;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A million DLQ entries: scrolling pages through them by keyset while the table holds a bounded window. */
@ExtendWith(ApplicationExtension.class)
class DlqBrowserMillionEntriesTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();
    private static final int ENTRIES = 1_000_000;
    private static final UiExecutor executor = UiExecutor.forFx(2);

    private DlqBrowserViewModel model;

    @BeforeAll
    static void seed() {
        DlqFixture.insertMany(ns.database(), "big", ENTRIES, Instant.now());
    }

    @AfterAll
    static void stop() {
        executor.close();
    }

    @Start
    void start(Stage stage) {
        Theme.apply(false);
        model = new DlqBrowserViewModel(new JdbcDlqQueries(ns.database()), List::of, executor, Clock.systemUTC());
        DlqBrowserView view = DlqBrowserView.load(model);
        ThemedStage.show(stage, view.root(), 1200, 700);
        model.applyFilter();
    }

    @Test
    void scrollingThroughPagesNeverHoldsMoreThanTheWindow(FxRobot robot) {
        TableView<DlqRow> table = robot.lookup("#dlqTable").queryTableView();
        await().atMost(Duration.ofSeconds(30)).until(() -> table.getItems().size() == DlqBrowserViewModel.PAGE_SIZE);
        Set<Long> seen = new HashSet<>();
        DlqTableClicks.clickFirst(robot);

        long oldestSeen = Long.MAX_VALUE;
        for (int page = 0; page < 8; page++) {
            int before = seen.size();
            table.getItems().forEach(row -> seen.add(row.id()));
            robot.type(KeyCode.END);
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                table.getItems().forEach(row -> seen.add(row.id()));
                return seen.size() > before && !model.loadingProperty().get();
            });
            assertThat(table.getItems().size()).isLessThanOrEqualTo(DlqBrowserViewModel.MAX_ROWS);
            long oldest = table.getItems().get(table.getItems().size() - 1).id();
            assertThat(oldest).isNotEqualTo(oldestSeen);
            oldestSeen = oldest;
        }
        assertThat(seen.size()).isGreaterThan(DlqBrowserViewModel.MAX_ROWS * 2);
        assertThat(model.hasPreviousProperty().get()).isTrue();

        robot.type(KeyCode.HOME);
        await().atMost(Duration.ofSeconds(20)).until(() -> !model.loadingProperty().get()
                && table.getItems().get(0).id() != seen.stream().findFirst().orElse(-1L));
        assertThat(model.mostRowsHeldProperty().get()).isLessThanOrEqualTo(DlqBrowserViewModel.MAX_ROWS);
        // Without a filter the count comes from the DLQ summary: exact, and as cheap as the estimate it replaced.
        assertThat(robot.lookup("#countLabel").queryLabeled().getText())
                .isEqualTo(String.format(Locale.ROOT, "%,d entries", ENTRIES));
    }
}
