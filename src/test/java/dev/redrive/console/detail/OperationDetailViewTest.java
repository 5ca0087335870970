package dev.redrive.console.detail;

import dev.redrive.console.RecordingDesktop;
import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.main.Theme;
import dev.redrive.console.main.WindowLayout;
import dev.redrive.console.ui.Truncations;
import dev.redrive.report.Redactor;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.detail.AttemptRecord;
import dev.redrive.triage.detail.EntryDetailsLoader;
import dev.redrive.triage.detail.OperationDetailsLoader;
import dev.redrive.triage.generate.DlqGenerator;
import javafx.scene.Scene;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import java.time.Clock;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/** The detail pane as wide as it is in the console's default window (the part right of the list). */
@ExtendWith(ApplicationExtension.class)
class OperationDetailViewTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();
    private static final double DEFAULT_PANE_WIDTH = WindowLayout.DEFAULT.width() * (1 - WindowLayout.DEFAULT.browserDivider());

    private final UiExecutor executor = UiExecutor.forFx(2);
    private OperationDetailViewModel model;

    @BeforeAll
    static void seed() {
        new DlqGenerator(ns.database(), Clock.systemUTC()).generate(40, "detail-view");
    }

    @Start
    void start(Stage stage) {
        Theme.apply(false);
        model = new OperationDetailViewModel(new OperationDetailsLoader(ns.database())::require,
                new EntryDetailsLoader(ns.database())::require, executor,
                Redactor.defaults(), "");
        Scene scene = new Scene(OperationDetailView.load(model, new RecordingDesktop()).root(), DEFAULT_PANE_WIDTH, 760);
        scene.getStylesheets().add(Theme.stylesheet());
        stage.setScene(scene);
        stage.show();
    }

    @AfterEach
    void stop() {
        executor.close();
    }

    @Test
    void theErrorsPerAttemptFitTheDefaultPaneWithWholeHeadersAndTheErrorTakingTheRest(FxRobot robot) throws Exception {
        String[] entry = ns.database().jdbc().queryOne("SELECT operation_id, id, attempt FROM dlq_entries "
                        + "WHERE attempt > 2 AND error_code IS NOT NULL ORDER BY id LIMIT 1",
                row -> new String[]{row.getString(1), row.getString(2), row.getString(3)}).orElseThrow();
        robot.interact(() -> model.show(entry[0], Long.parseLong(entry[1])));
        TableView<AttemptRecord> table = robot.lookup("#attemptTable").queryTableView();
        await().atMost(Duration.ofSeconds(20)).until(() -> table.getItems().size() == Integer.parseInt(entry[2]));
        robot.interact(() -> { });

        assertThat(Truncations.under(table)).isEmpty();
        TableColumn<AttemptRecord, ?> error = table.getColumns().get(table.getColumns().size() - 1);
        assertThat(error.getText()).isEqualTo("Error");
        double others = table.getColumns().stream().filter(column -> column != error).mapToDouble(TableColumn::getWidth).sum();
        double inside = table.lookup(".clipped-container").getLayoutBounds().getWidth();
        assertThat(error.getWidth()).isGreaterThanOrEqualTo(160).isCloseTo(inside - others, within(1.0));

        AttemptRecord first = table.getItems().get(0);
        String tooltip = robot.lookup("#attemptTable .table-row-cell").queryAllAs(TableRow.class).stream()
                .filter(row -> row.getItem() == first).findFirst().orElseThrow().getTooltip().getText();
        assertThat(tooltip).contains("attempt " + first.attempt() + " · " + first.outcome(), "consumer " + first.consumer(),
                first.errorCode(), first.errorMessage());
    }
}
