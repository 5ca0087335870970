package dev.redrive.console;

import dev.redrive.console.dlq.DlqTableClicks;
import dev.redrive.console.timeline.AttemptTimeline;
import dev.redrive.console.ui.SideEffectBadge;
import dev.redrive.model.FailureClass;
import dev.redrive.model.SideEffectState;
import dev.redrive.testing.TestNamespace;
import dev.redrive.bench.generate.DlqGenerator;
import dev.redrive.triage.query.DlqRow;
import dev.redrive.triage.query.FingerprintGroup;
import dev.redrive.console.ui.Theme;
import javafx.scene.Node;
import javafx.scene.image.Image;
import javafx.scene.image.PixelReader;
import javafx.scene.paint.Color;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ComboBox;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TableView;
import javafx.scene.control.skin.TableColumnHeader;
import javafx.scene.control.skin.VirtualFlow;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.time.Clock;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.redrive.console.ScreensFixture.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The main screens wired as the console wires them, on a namespace seeded by the DLQ generator. */
@ExtendWith(ApplicationExtension.class)
class ConsoleScreensTest {
    static final TestNamespace ns = new TestNamespace();
    @RegisterExtension
    static final ScreensFixture onStage = new ScreensFixture(ns, "console-test-screens");

    private ScreensOnStage screens;

    @BeforeAll
    static void seed() {
        new DlqGenerator(ns.database(), Clock.systemUTC()).generate(400, "screens");
    }

    @Start
    void start(Stage stage) {
        screens = onStage.show(stage, new RecordingDesktop());
    }

    @Test
    void filterByClassShowsOnlyMatchingRows(FxRobot robot) {
        TableView<DlqRow> table = DlqTableClicks.loadedTable(robot, WAIT);

        ComboBox<FailureClass> classes = robot.lookup("#filterClass").queryComboBox();
        robot.interact(() -> classes.setValue(FailureClass.PERMISSION));

        await().atMost(WAIT).untilAsserted(() -> assertThat(table.getItems()).isNotEmpty()
                .allMatch(row -> row.errorClass() == FailureClass.PERMISSION));
        long expected = ns.database().jdbc().queryLong("SELECT count(*) FROM dlq_entries WHERE error_class = 'PERMISSION'");
        assertThat(table.getItems()).hasSize((int) Math.min(expected, 100));
    }

    @Test
    void openAGroupSelectAnEntryAndTheTimelineHasOneBarPerAttempt(FxRobot robot) {
        robot.clickOn("#groupedView");
        TableView<FingerprintGroup> groups = robot.lookup("#groupTable").queryTableView();
        await().atMost(WAIT).until(() -> !groups.getItems().isEmpty());
        // On a busy machine the rows may be laid out a moment after the items arrive.
        await().atMost(WAIT).until(() -> robot.lookup("#groupTable .table-row-cell").tryQuery().isPresent());

        robot.doubleClickOn(robot.lookup("#groupTable .table-row-cell").nth(0).queryAs(javafx.scene.Node.class));
        TableView<DlqRow> table = robot.lookup("#dlqTable").queryTableView();
        String fingerprint = groups.getItems().get(0).fingerprint();
        await().atMost(WAIT).untilAsserted(() -> assertThat(table.getItems()).isNotEmpty()
                .allMatch(row -> row.fingerprint().equals(fingerprint)));
        DlqTableClicks.clickFirst(robot);

        DlqRow selected = table.getSelectionModel().getSelectedItem();
        assertThat(selected.fingerprint()).isEqualTo(fingerprint);
        long attempts = ns.database().jdbc().queryLong("SELECT count(*) FROM attempts WHERE operation_id = ?",
                selected.operationId());
        AttemptTimeline timeline = robot.lookup("#attemptTimeline").queryAs(AttemptTimeline.class);
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(robot.lookup("#detailOperationId").queryLabeled().getText()).isEqualTo(selected.operationId());
            assertThat(timeline.bars()).hasSize((int) attempts);
        });
        assertThat(attempts).isPositive();
    }

    @Test
    void clickingTheEnteredHeaderShowsTheOldestEntryFirst_andAgainTheNewest(FxRobot robot) {
        TableView<DlqRow> table = DlqTableClicks.loadedTable(robot, WAIT);
        long oldest = ns.database().jdbc().queryLong("SELECT id FROM dlq_entries ORDER BY entered_at, id LIMIT 1");

        TableColumnHeader entered = robot.lookup("#dlqTable .column-header")
                .match(node -> node instanceof TableColumnHeader header && header.getTableColumn() != null
                        && "Entered".equals(header.getTableColumn().getText()))
                .queryAs(TableColumnHeader.class);
        robot.clickOn(entered);

        await().atMost(WAIT).untilAsserted(() -> assertThat(table.getItems().get(0).id()).isEqualTo(oldest));
        assertThat(table.getItems()).hasSize(100);
        robot.clickOn(entered);
        long newest = ns.database().jdbc().queryLong("SELECT id FROM dlq_entries ORDER BY entered_at DESC, id DESC LIMIT 1");
        await().atMost(WAIT).untilAsserted(() -> assertThat(table.getItems().get(0).id()).isEqualTo(newest));
    }

    @Test
    void aPossibleSideEffectGetsTheLoudBadge(FxRobot robot) {
        ComboBox<SideEffectState> sideEffects = robot.lookup("#filterSideEffect").queryComboBox();
        robot.interact(() -> sideEffects.setValue(SideEffectState.POSSIBLE));
        TableView<DlqRow> table = robot.lookup("#dlqTable").queryTableView();
        await().atMost(WAIT).untilAsserted(() -> assertThat(table.getItems()).isNotEmpty()
                .allMatch(row -> row.sideEffect() == SideEffectState.POSSIBLE));

        DlqTableClicks.clickFirst(robot);

        SideEffectBadge badge = robot.lookup("#sideEffectBadge").queryAs(SideEffectBadge.class);
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(badge.getText()).isEqualTo("⚠ POSSIBLE");
            assertThat(badge.getStyleClass()).contains("side-effect-possible");
        });
    }

    /**
     * On an X server without a compositor windows cannot be transparent: a menu's window as big as its shadow showed a
     * white frame around the dark menu, where the shadow left the window uncovered. There the menu fills its window, to
     * its last pixel: every pixel along the window's edge is opaque and dark.
     */
    @Test
    void inTheDarkTheme_withoutTransparentWindows_theMenuARightClickOnARowOpensHasNoWhiteFrame(FxRobot robot)
            throws Exception {
        robot.interact(() -> Theme.apply(true, false));
        TableView<DlqRow> table = DlqTableClicks.loadedTable(robot, WAIT);
        await().atMost(WAIT).until(() -> robot.lookup("#dlqTable .table-row-cell").tryQuery().isPresent());
        ContextMenu menu = table.getContextMenu();

        DlqTableClicks.rightClickFirst(robot);

        await().atMost(WAIT).until(menu::isShowing);
        assertThat(table.getSelectionModel().getSelectedIndex()).as("the right-clicked row is selected").isZero();
        assertThat(menu.getItems()).extracting(MenuItem::getText).contains("Export incident report of the selection…");
        Node drawn = menu.getSkin().getNode();
        assertThat(drawn.getEffect()).as("no shadow drawn outside the menu").isNull();
        assertThat(menu.getWidth()).as("the menu's window is as wide as the menu").isEqualTo(drawn.getBoundsInParent().getWidth());
        assertThat(menu.getHeight()).as("the menu's window is as high as the menu").isEqualTo(drawn.getBoundsInParent().getHeight());
        Image window = WaitForAsyncUtils.asyncFx(() -> menu.getScene().snapshot(null)).get();
        assertThat(frameColours(window)).as("the colours along the menu window's edge").isNotEmpty()
                .allSatisfy(colour -> assertThat(colour.getOpacity() == 1 && colour.getBrightness() < 0.5)
                        .as("%s is opaque and dark, not white or see-through (white on such a screen)", colour).isTrue());
        robot.interact(menu::hide);
    }

    /** The distinct colours of the outermost pixels of an image. */
    private static Set<Color> frameColours(Image image) {
        PixelReader pixels = image.getPixelReader();
        int width = (int) image.getWidth();
        int height = (int) image.getHeight();
        Set<Color> colours = new HashSet<>();
        for (int x = 0; x < width; x++) {
            colours.add(pixels.getColor(x, 0));
            colours.add(pixels.getColor(x, height - 1));
        }
        for (int y = 0; y < height; y++) {
            colours.add(pixels.getColor(0, y));
            colours.add(pixels.getColor(width - 1, y));
        }
        return colours;
    }

    @Test
    void keyboardShortcutsFocusTheFilterMoveThroughEntriesAndSwitchToGroups(FxRobot robot) {
        TableView<DlqRow> table = DlqTableClicks.loadedTable(robot, WAIT);

        robot.press(KeyCode.CONTROL, KeyCode.F).release(KeyCode.F, KeyCode.CONTROL);
        assertThat(robot.lookup("#filterText").query().isFocused()).isTrue();
        robot.press(KeyCode.CONTROL, KeyCode.J).release(KeyCode.J, KeyCode.CONTROL);
        robot.press(KeyCode.CONTROL, KeyCode.J).release(KeyCode.J, KeyCode.CONTROL);
        assertThat(table.getSelectionModel().getSelectedIndex()).isEqualTo(1);
        robot.press(KeyCode.CONTROL, KeyCode.K).release(KeyCode.K, KeyCode.CONTROL);
        assertThat(table.getSelectionModel().getSelectedIndex()).isZero();
        robot.press(KeyCode.CONTROL, KeyCode.G).release(KeyCode.G, KeyCode.CONTROL);
        await().atMost(WAIT).until(() -> robot.lookup("#groupTable").query().isVisible());
    }

    @Test
    void aNewDlqEventShowsTheNewIndicator(FxRobot robot) {
        TableView<DlqRow> table = DlqTableClicks.loadedTable(robot, WAIT);
        Button indicator = robot.lookup("#newIndicator").queryButton();
        assertThat(indicator.isVisible()).isFalse();
        // The tail marks where it starts at its first poll, which start() submits beside the first page's read: an
        // event added before that poll has ended would count as old.
        await().atMost(WAIT).until(screens::idle);

        // An entry that arrives after the list was read, and its event: the console counts it once the database
        // says the applied filter (none) matches it.
        new DlqGenerator(ns.database(), Clock.systemUTC()).generate(1, "live");
        long arrived = ns.database().jdbc().queryLong("SELECT max(id) FROM dlq_entries");
        ns.redis().sync().xadd(ns.redis().keys().dlq(), Map.of("dlq_entry_id", String.valueOf(arrived),
                "operation_id", "live:n1:0", "error_class", "TRANSIENT", "tool", "demo.charge",
                "fingerprint", "fp-live", "entered_at", Instant.now().toString()));

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(indicator.isVisible()).isTrue();
            assertThat(indicator.getText()).isEqualTo("1 new");
        });
    }
    @Test
    void closingTheWizard_evenWithCancel_keepsTheListsOrderSelectionAndScroll_andADiscardChangesOnlyItsRow(FxRobot robot) {
        TableView<DlqRow> table = robot.lookup("#dlqTable").queryTableView();
        await().atMost(WAIT).until(() -> table.getItems().size() >= 60);
        DlqRow chosen = table.getItems().stream().skip(40).filter(row -> row.sideEffect() == SideEffectState.NONE
                && row.decisionState() == dev.redrive.model.DecisionState.OPEN).findFirst().orElseThrow();
        robot.interact(() -> {
            table.scrollTo(table.getItems().indexOf(chosen));
            table.getSelectionModel().clearAndSelect(table.getItems().indexOf(chosen));
        });
        VirtualFlow<?> flow = (VirtualFlow<?>) table.lookup(".virtual-flow");
        int firstShown = flow.getFirstVisibleCell().getIndex();
        List<DlqRow> before = List.copyOf(table.getItems());

        wizard(robot);
        robot.clickOn(wizardButton(robot, ButtonBar.ButtonData.CANCEL_CLOSE));
        await().atMost(WAIT).until(() -> robot.lookup("#wizardOperation").tryQuery().isEmpty());
        // Whatever closing the wizard started (reading rows again, the detail) has ended before the list is compared.
        await().atMost(WAIT).until(screens::idle);
        assertThat(table.getItems()).containsExactlyElementsOf(before);
        assertThat(table.getSelectionModel().getSelectedItem()).isEqualTo(chosen);
        assertThat(flow.getFirstVisibleCell().getIndex()).isEqualTo(firstShown);

        wizard(robot);
        robot.clickOn(wizardButton(robot, ButtonBar.ButtonData.NEXT_FORWARD));
        await().atMost(WAIT).until(() -> !wizardButton(robot, ButtonBar.ButtonData.NEXT_FORWARD).isDisabled());
        robot.clickOn(wizardButton(robot, ButtonBar.ButtonData.NEXT_FORWARD));
        await().atMost(WAIT).until(() -> robot.lookup("#checkSummary").tryQuery().map(node -> node.isVisible()
                && !((javafx.scene.control.Label) node).getText().isEmpty()).orElse(false));
        await().atMost(WAIT).until(() -> !wizardButton(robot, ButtonBar.ButtonData.NEXT_FORWARD).isDisabled());
        robot.clickOn(wizardButton(robot, ButtonBar.ButtonData.NEXT_FORWARD));
        robot.clickOn("#decisionDiscard").clickOn("#decisionReason").write("duplicate of another order");
        await().atMost(WAIT).until(() -> wizardButton(robot, ButtonBar.ButtonData.NEXT_FORWARD).getText().equals("Discard 1 entry"));
        robot.clickOn(wizardButton(robot, ButtonBar.ButtonData.NEXT_FORWARD));
        await().atMost(WAIT).until(() -> robot.lookup("#result-succeeded").tryQuery()
                .map(node -> ((javafx.scene.control.Label) node).getText().equals("1 succeeded")).orElse(false));
        robot.clickOn(wizardButton(robot, ButtonBar.ButtonData.FINISH));

        int at = before.indexOf(chosen);
        await().atMost(WAIT).until(() -> table.getItems().get(at).decisionState() == dev.redrive.model.DecisionState.DISCARDED);
        assertThat(table.getItems()).extracting(DlqRow::id).containsExactlyElementsOf(before.stream().map(DlqRow::id).toList());
        // The row is replaced in place first, then selected again (a table drops the selection of a replaced row).
        await().atMost(WAIT).untilAsserted(() -> assertThat(table.getSelectionModel().getSelectedItem())
                .extracting(DlqRow::id).isEqualTo(chosen.id()));
        assertThat(flow.getFirstVisibleCell().getIndex()).isEqualTo(firstShown);
    }

    /** Opens the wizard on the selected entry with the console's shortcut and waits for its first step. */
    private static void wizard(FxRobot robot) {
        robot.press(KeyCode.CONTROL, KeyCode.R).release(KeyCode.R, KeyCode.CONTROL);
        await().atMost(WAIT).until(() -> robot.lookup("#wizardOperation").tryQuery().map(node -> node.isVisible()).orElse(false));
    }

    private static Button wizardButton(FxRobot robot, ButtonBar.ButtonData data) {
        return robot.lookup(".button").queryAllAs(Button.class).stream()
                .filter(button -> ButtonBar.getButtonData(button) == data && button.isVisible()).findFirst().orElseThrow();
    }
}
