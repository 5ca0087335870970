package dev.redrive.console;

import dev.redrive.bench.generate.DlqGenerator;
import dev.redrive.console.dlq.DlqTableClicks;
import dev.redrive.testing.TestNamespace;
import dev.redrive.testing.TestDecisions;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.query.DlqRow;
import javafx.scene.Node;
import javafx.scene.control.ComboBox;
import javafx.scene.control.ListCell;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.text.PDFTextStripper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;

import static dev.redrive.console.ScreensFixture.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The operator exports an entry's incident report from the detail pane: format, file, progress, the file opens. */
@ExtendWith(ApplicationExtension.class)
class ReportExportFlowTest {
    static final TestNamespace ns = new TestNamespace();
    @RegisterExtension
    static final ScreensFixture onStage = new ScreensFixture(ns, "console-test-export");
    private static final String REASON = "duplicate of an order already shipped";
    private static String operationId;
    private static String traceId;

    @TempDir
    Path directory;

    private final RecordingDesktop desktop = new RecordingDesktop();

    @BeforeAll
    static void seedAnEntryWithADecision() {
        new DlqGenerator(ns.database(), Clock.systemUTC()).generate(30, "export");
        operationId = ns.database().jdbc().queryOne(
                "SELECT operation_id FROM dlq_entries WHERE decision_state = 'OPEN' ORDER BY id LIMIT 1",
                row -> row.getString(1)).orElseThrow();
        traceId = ns.database().jdbc().queryOne("SELECT trace_id FROM operations WHERE operation_id = ?",
                row -> row.getString(1), operationId).orElseThrow();
        TestDecisions.of(ns)
                .discard(DecisionTarget.operation(operationId), "ana", REASON);
    }

    @Start
    void start(Stage stage) {
        onStage.show(stage, desktop);
    }

    @AfterEach
    void close(FxRobot robot) {
        // The "Report saved" note stays until closed: one left over would cover the next test's buttons.
        robot.interact(() -> robot.listTargetWindows().stream().filter(Stage.class::isInstance)
                .filter(window -> "Report saved".equals(((Stage) window).getTitle())).toList().forEach(Window::hide));
    }

    @Test
    void exportAsPdf_writesTheChosenFileWithTheOperationAndItsDecision_andOpensIt(FxRobot robot) throws IOException {
        Path file = exportTo(robot, "incident.pdf");
        robot.clickOn("OK");

        await().atMost(WAIT).until(() -> desktop.opened().contains(file.toUri().toString()));
        assertThat(desktop.proposedNames()).containsExactly("report-" + operationId.replace(':', '_') + ".pdf");
        try (var pdf = Loader.loadPDF(file.toFile())) {
            String text = new PDFTextStripper().getText(pdf).replaceAll("\\s+", " ");
            assertThat(text).contains(operationId).contains("DISCARD").contains("ana");
        }
        await().atMost(WAIT).until(() -> robot.listWindows().stream()
                .noneMatch(window -> window instanceof Stage stage && "Exporting".equals(stage.getTitle())));
    }

    @Test
    void exportAsHtml_afterChoosingTheFormat(FxRobot robot) throws IOException {
        Path file = exportTo(robot, "incident.html");
        openFormats(robot);
        chooseFormat(robot, "HTML");
        robot.clickOn("OK");

        await().atMost(WAIT).until(() -> desktop.opened().contains(file.toUri().toString()));
        String html = Files.readString(file);
        assertThat(html).contains(operationId).contains(REASON).contains("DISCARD");
    }

    @Test
    void exportAsMarkdown_offersItByItsName_andSaysWhereTheFileWent(FxRobot robot) throws IOException {
        Path file = exportTo(robot, "incident.md");
        openFormats(robot);
        assertThat(robot.lookup(".list-cell").queryAllAs(ListCell.class))
                .extracting(ListCell::getText).contains("Markdown").doesNotContain("MARKDOWN");
        chooseFormat(robot, "Markdown");
        robot.clickOn("OK");

        await().atMost(WAIT).until(() -> robot.lookup("#reportSavedPath").tryQuery().isPresent());
        assertThat(robot.lookup("#reportSavedPath").queryTextInputControl().getText())
                .isEqualTo(file.toAbsolutePath().toString());
        assertThat(Files.readString(file)).contains(operationId);
        javafx.stage.Window saved = robot.lookup("#reportSavedPath").query().getScene().getWindow();
        robot.clickOn("#reportSavedPath").type(javafx.scene.input.KeyCode.ESCAPE);
        await().atMost(WAIT).until(() -> !saved.isShowing());
    }

    @Test
    void theSavedNote_opensTheReportsFolder(FxRobot robot) {
        Path file = exportTo(robot, "folder-of-this.pdf");
        robot.clickOn("OK");
        await().atMost(WAIT).until(() -> robot.lookup("#openReportFolder").tryQuery().isPresent());
        javafx.stage.Window saved = robot.lookup("#openReportFolder").query().getScene().getWindow();
        robot.clickOn("#openReportFolder");

        await().atMost(WAIT).until(() -> desktop.opened().contains(directory.toAbsolutePath().toUri().toString()));
        assertThat(desktop.opened()).contains(file.toAbsolutePath().toUri().toString());
        await().atMost(WAIT).until(() -> !saved.isShowing());
    }

    @Test
    void cancellingTheSaveDialog_writesAndOpensNothing(FxRobot robot) throws IOException {
        showTheDecidedEntry(robot);

        chooseExport(robot);
        robot.clickOn("OK");

        assertThat(desktop.proposedNames()).hasSize(1);
        assertThat(desktop.opened()).isEmpty();
        try (var files = Files.list(directory)) {
            assertThat(files).isEmpty();
        }
    }

    private void showTheDecidedEntry(FxRobot robot) {
        robot.clickOn("#filterTrace").write(traceId);
        robot.clickOn("#applyFilter");
        TableView<DlqRow> table = robot.lookup("#dlqTable").queryTableView();
        await().atMost(WAIT).untilAsserted(() -> assertThat(table.getItems()).extracting(DlqRow::operationId)
                .containsExactly(operationId));
        DlqTableClicks.clickOperation(robot, operationId);
        await().atMost(WAIT).untilAsserted(() ->
                assertThat(robot.lookup("#detailOperationId").queryLabeled().getText()).isEqualTo(operationId));
    }

    /**
     * Has the save dialog answer with {@code fileName} in the temporary directory, shows the decided entry and opens
     * its export dialog; returns the file.
     */
    private Path exportTo(FxRobot robot, String fileName) {
        Path file = directory.resolve(fileName);
        desktop.answerSaveWith(file);
        showTheDecidedEntry(robot);
        chooseExport(robot);
        return file;
    }

    /** Opens the export dialog's list of formats. */
    private static void openFormats(FxRobot robot) {
        robot.clickOn(robot.lookup(".dialog-pane .combo-box").queryAs(ComboBox.class));
    }

    /** Picks the format the open list shows as {@code name}. */
    private static void chooseFormat(FxRobot robot, String name) {
        robot.clickOn(robot.lookup(".list-cell").match(node -> node instanceof ListCell<?> cell
                && name.equals(cell.getText())).queryAs(Node.class));
    }

    private static void chooseExport(FxRobot robot) {
        robot.clickOn("More");
        robot.clickOn("Export incident report…");
    }
}
