package dev.redrive.console.dlq;

import dev.redrive.console.ui.DesktopNotices;
import dev.redrive.console.ui.FxmlView;
import dev.redrive.console.ui.Clipboards;
import dev.redrive.console.ui.RelativeTime;
import dev.redrive.console.ui.Shown;
import dev.redrive.model.DecisionState;
import dev.redrive.model.FailureClass;
import dev.redrive.model.SideEffectState;
import dev.redrive.triage.query.DlqOrder;
import dev.redrive.triage.query.DlqRow;
import dev.redrive.triage.query.FingerprintGroup;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.application.Platform;
import javafx.collections.FXCollections;
import javafx.collections.ListChangeListener;
import javafx.fxml.FXML;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.MenuItem;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.SelectionMode;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.Tooltip;
import javafx.scene.control.skin.VirtualFlow;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.MouseButton;
import javafx.scene.layout.HBox;
import javafx.util.Callback;
import javafx.util.Duration;

import java.time.ZoneId;
import java.util.List;
import java.util.function.Consumer;

/**
 * The DLQ browser: filter bar, flat entries or fingerprint groups, keyset paging as the table scrolls, the Entered
 * column sorting newest or oldest first, an "N new" button for live arrivals, multi-select and keyboard shortcuts.
 */
public final class DlqBrowserView extends FxmlView<DlqBrowserViewModel> {
    /** Fixed row height (two lines): lets the table virtualise without measuring rows. */
    public static final double ROW_HEIGHT = DlqColumns.ROW_HEIGHT;
    /** How often "3 min ago" is brought up to date. */
    private static final Duration AGE_REFRESH = Duration.seconds(15);

    @FXML private TextField textField;
    @FXML private ComboBox<FailureClass> classBox;
    @FXML private TextField toolField;
    @FXML private TextField runField;
    @FXML private TextField traceField;
    @FXML private ComboBox<TimeRange> timeBox;
    @FXML private ComboBox<SideEffectState> sideEffectBox;
    @FXML private ComboBox<DecisionState> decisionBox;
    @FXML private ToggleButton flatButton;
    @FXML private ToggleButton groupedButton;
    @FXML private HBox groupChip;
    @FXML private Label groupLabel;
    @FXML private Label countLabel;
    @FXML private Label filterError;
    @FXML private ProgressIndicator loadingIndicator;
    @FXML private Button newButton;
    @FXML private TableView<DlqRow> table;
    @FXML private TableView<FingerprintGroup> groupTable;

    private DlqColumns columns;
    private TableColumn<DlqRow, DlqRow> enteredColumn;
    private final Timeline ageRefresh = new Timeline(new KeyFrame(AGE_REFRESH, event -> refreshAges()));
    private Consumer<List<DlqRow>> wizardOpener = rows -> { };
    private Consumer<FingerprintGroup> groupWizardOpener = group -> { };
    private Consumer<List<DlqRow>> selectionExporter = rows -> { };
    private Consumer<FingerprintGroup> groupExporter = group -> { };
    private Consumer<FingerprintGroup> groupBatchStarter = group -> { };
    private DlqRow anchor;
    private VirtualFlow<?> flow;
    private boolean rangeCheckPending;
    private boolean showingOrder;

    public static DlqBrowserView load(DlqBrowserViewModel model) {
        return FxmlView.load("/console/dlq/DlqBrowser.fxml", model);
    }

    private void initializeParts() {
        optionBox(classBox, FailureClass.values(), "Any class");
        optionBox(sideEffectBox, SideEffectState.values(), "Any side effect");
        optionBox(decisionBox, DecisionState.values(), "Any decision");
        timeBox.setItems(FXCollections.observableArrayList(TimeRange.values()));
        columns = new DlqColumns(new RelativeTime(ZoneId.systemDefault()), model::now);
        enteredColumn = columns.entered();
        initializeEntryTable();
        initializeGroupTable();
    }

    private void initializeEntryTable() {
        table.setFixedCellSize(ROW_HEIGHT);
        table.getSelectionModel().setSelectionMode(SelectionMode.MULTIPLE);
        table.setPlaceholder(new Label("No DLQ entries match the filter."));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.getColumns().setAll(columns.entries(enteredColumn));
        table.setRowFactory(view -> {
            TableRow<DlqRow> row = new TableRow<>();
            row.indexProperty().addListener((obs, was, index) -> scheduleVisibleRangeCheck());
            row.setOnMouseClicked(event -> {
                if (event.getButton() == MouseButton.PRIMARY && event.getClickCount() == 2 && !row.isEmpty()) {
                    wizardOpener.accept(List.of(row.getItem()));
                }
            });
            return row;
        });
        table.setContextMenu(new ContextMenu(
                item("Copy operation id", this::copyOperationId),
                item("Reconcile / redrive…", this::openWizard),
                item("Export incident report of the selection…", () -> {
                    if (!model.selection().isEmpty()) {
                        selectionExporter.accept(List.copyOf(model.selection()));
                    }
                })));
    }

    private void initializeGroupTable() {
        groupTable.setFixedCellSize(ROW_HEIGHT);
        groupTable.setPlaceholder(new Label("No fingerprint groups match the filter."));
        groupTable.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        groupTable.getColumns().setAll(columns.groups());
        groupTable.setRowFactory(view -> {
            TableRow<FingerprintGroup> row = new TableRow<>();
            row.setOnMouseClicked(event -> {
                if (event.getClickCount() == 2 && !row.isEmpty()) {
                    model.openGroup(row.getItem());
                }
            });
            return row;
        });
        // The handlers are read when the item is chosen: the screen that owns the wizard sets them after loading.
        groupTable.setContextMenu(new ContextMenu(
                item("Open group", () -> withSelectedGroup(model::openGroup)),
                item("Reconcile / redrive group…", () -> withSelectedGroup(group -> groupWizardOpener.accept(group))),
                item("Redrive whole group as a batch…", () -> withSelectedGroup(group -> groupBatchStarter.accept(group))),
                item("Export incident report of the group…",
                        () -> withSelectedGroup(group -> groupExporter.accept(group)))));
        groupTable.setOnKeyPressed(event -> {
            if (event.getCode() == KeyCode.ENTER) {
                withSelectedGroup(model::openGroup);
            }
        });
    }

    @Override
    protected void bind() {
        initializeParts();
        // Once per new kind of failure, not per entry: more of a known failure raises the "N new" count alone.
        model.onNewGroup(group -> DesktopNotices.warn(root(), "Redrive · new failure group", group.describe(),
                "Several new failure groups: the Groups view lists them."));
        textField.textProperty().bindBidirectional(model.textProperty());
        classBox.valueProperty().bindBidirectional(model.errorClassProperty());
        toolField.textProperty().bindBidirectional(model.toolProperty());
        runField.textProperty().bindBidirectional(model.runIdProperty());
        traceField.textProperty().bindBidirectional(model.traceIdProperty());
        timeBox.valueProperty().bindBidirectional(model.timeRangeProperty());
        sideEffectBox.valueProperty().bindBidirectional(model.sideEffectProperty());
        decisionBox.valueProperty().bindBidirectional(model.decisionStateProperty());
        classBox.valueProperty().addListener((obs, was, now) -> model.applyFilter());
        timeBox.valueProperty().addListener((obs, was, now) -> model.applyFilter());
        sideEffectBox.valueProperty().addListener((obs, was, now) -> model.applyFilter());
        decisionBox.valueProperty().addListener((obs, was, now) -> model.applyFilter());

        flatButton.setOnAction(event -> model.setGrouped(false));
        groupedButton.setOnAction(event -> model.setGrouped(true));
        model.groupedProperty().addListener((obs, was, grouped) -> {
            flatButton.setSelected(!grouped);
            groupedButton.setSelected(grouped);
        });
        table.visibleProperty().bind(model.groupedProperty().not());
        groupTable.visibleProperty().bind(model.groupedProperty());
        Shown.when(model.openGroupProperty().isNotNull(), groupChip);
        model.openGroupProperty().addListener((obs, was, group) -> {
            groupLabel.setText(group == null ? "" : DlqColumns.shortTitle(group));
            groupLabel.setTooltip(group == null ? null
                    : new Tooltip(DlqColumns.title(group) + "\nfingerprint " + group.fingerprint()));
        });
        countLabel.textProperty().bind(model.countTextProperty());
        filterError.textProperty().bind(model.filterErrorProperty());
        loadingIndicator.visibleProperty().bind(model.loadingProperty());
        newButton.textProperty().bind(model.newTextProperty());
        Shown.when(model.newCountProperty().greaterThan(0), newButton);
        newButton.setTooltip(new Tooltip("New DLQ entries arrived: show them (Ctrl+N)"));

        table.setItems(model.rows());
        sortByEnteredThroughModel();
        groupTable.setItems(model.groups());
        table.getSelectionModel().getSelectedItems().addListener((ListChangeListener<DlqRow>) change ->
                model.select(List.copyOf(table.getSelectionModel().getSelectedItems()),
                        table.getSelectionModel().getSelectedItem()));
        model.rows().addListener((ListChangeListener<DlqRow>) change -> {
            columns.fitEntries(table, model.rows());
            keepAnchorInView();
        });
        model.groups().addListener((ListChangeListener<FingerprintGroup>) change -> columns.fitGroups(groupTable, model.groups()));
        ageRefresh.setCycleCount(Timeline.INDEFINITE);
        model.firstNewProperty().addListener((obs, was, row) -> reveal(row));
        model.reselectProperty().addListener((obs, was, again) -> again.forEach(table.getSelectionModel()::select));
        table.skinProperty().addListener((obs, was, skin) -> watchScrolling());
        root().sceneProperty().addListener((obs, was, scene) -> installShortcuts(scene));
    }

    /**
     * A click on the Entered header asks the model for the other order, which re-queries from the first page: the
     * table holds only a window of the DLQ, so the loaded rows are never sorted here.
     */
    private void sortByEnteredThroughModel() {
        showingOrder = true; // setting a policy runs it once, which is no request from the operator
        table.setSortPolicy(view -> {
            if (!showingOrder) {
                // From descending, the header's click cycle drops the column from the sort order: a toggle all the same.
                boolean newestFirst = view.getSortOrder().contains(enteredColumn)
                        && enteredColumn.getSortType() == TableColumn.SortType.DESCENDING;
                model.setOrder(newestFirst ? DlqOrder.NEWEST_FIRST : DlqOrder.OLDEST_FIRST);
                Platform.runLater(this::showOrder);
            }
            return true;
        });
        showingOrder = false;
        showOrder();
    }

    /** Puts the model's order on the Entered header's arrow. */
    private void showOrder() {
        showingOrder = true;
        enteredColumn.setSortType(model.orderProperty().get() == DlqOrder.OLDEST_FIRST
                ? TableColumn.SortType.ASCENDING : TableColumn.SortType.DESCENDING);
        table.getSortOrder().setAll(List.of(enteredColumn));
        showingOrder = false;
    }

    /** Follows the visible rows so the model can fetch the next page before the edge is reached. */
    private void watchScrolling() {
        flow = (VirtualFlow<?>) table.lookup(".virtual-flow");
    }

    /**
     * Rows are re-indexed whenever the visible range moves (scroll bar, wheel, keys): check the range once after
     * the current layout pass.
     */
    private void scheduleVisibleRangeCheck() {
        if (!rangeCheckPending) {
            rangeCheckPending = true;
            Platform.runLater(() -> {
                rangeCheckPending = false;
                reportVisibleRange();
            });
        }
    }

    private void reportVisibleRange() {
        if (flow == null || flow.getFirstVisibleCell() == null || flow.getLastVisibleCell() == null) {
            return;
        }
        int first = flow.getFirstVisibleCell().getIndex();
        int last = flow.getLastVisibleCell().getIndex();
        if (first >= 0 && first < model.rows().size()) {
            anchor = model.rows().get(first);
        }
        model.onVisibleRange(first, last);
    }

    /** After the window of rows shifts, the row that was on top stays on top: the table never jumps. */
    private void keepAnchorInView() {
        if (flow == null) {
            return;
        }
        // By id: a row read again in place (a decision changed it) is another object with the same id.
        int index = anchor == null ? -1 : indexOfEntry(anchor.id());
        if (index < 0) {
            anchor = null;
            flow.scrollTo(0);
        } else {
            anchor = model.rows().get(index);
            flow.scrollToTop(index);
        }
    }

    private int indexOfEntry(long id) {
        List<DlqRow> rows = model.rows();
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).id() == id) {
                return i;
            }
        }
        return -1;
    }

    /** Brings the first new entry to the top of the table (or as near as the end of the list lets it come). */
    private void reveal(DlqRow row) {
        int index = row == null ? -1 : model.rows().indexOf(row);
        if (flow == null || index < 0) {
            return;
        }
        anchor = row;
        // The rows were just replaced: lay the table out first so the flow scrolls within the new row count, and
        // again after, so a pending visible-range check reads the rows now on screen, not those of the old position.
        table.layout();
        flow.scrollToTop(index);
        table.layout();
    }

    /** "3 min ago" grows older: the texts are redrawn now and then, the columns widened if need be. */
    private void refreshAges() {
        columns.fitEntries(table, model.rows());
        columns.fitGroups(groupTable, model.groups());
        columns.tick();
    }

    private void installShortcuts(Scene scene) {
        if (scene == null) {
            ageRefresh.stop();
            return;
        }
        ageRefresh.play();
        scene.getAccelerators().put(new KeyCodeCombination(KeyCode.F, KeyCombination.SHORTCUT_DOWN), this::focusFilter);
        scene.getAccelerators().put(new KeyCodeCombination(KeyCode.J, KeyCombination.SHORTCUT_DOWN), () -> move(1));
        scene.getAccelerators().put(new KeyCodeCombination(KeyCode.K, KeyCombination.SHORTCUT_DOWN), () -> move(-1));
        scene.getAccelerators().put(new KeyCodeCombination(KeyCode.C, KeyCombination.SHORTCUT_DOWN,
                KeyCombination.SHIFT_DOWN), this::copyOperationId);
        scene.getAccelerators().put(new KeyCodeCombination(KeyCode.R, KeyCombination.SHORTCUT_DOWN), this::openWizard);
        scene.getAccelerators().put(new KeyCodeCombination(KeyCode.G, KeyCombination.SHORTCUT_DOWN),
                () -> model.setGrouped(!model.groupedProperty().get()));
        scene.getAccelerators().put(new KeyCodeCombination(KeyCode.N, KeyCombination.SHORTCUT_DOWN), model::showNew);
        scene.getAccelerators().put(new KeyCodeCombination(KeyCode.F5), model::reload);
    }

    public void focusFilter() {
        textField.requestFocus();
        textField.selectAll();
    }

    /** Selects the next (+1) or previous (-1) entry. */
    public void move(int step) {
        int index = table.getSelectionModel().getSelectedIndex();
        int next = Math.max(0, Math.min(model.rows().size() - 1, index + step));
        table.getSelectionModel().clearAndSelect(next);
        table.scrollTo(Math.max(0, next - 3));
        table.requestFocus();
    }

    public void copyOperationId() {
        DlqRow row = model.currentProperty().get();
        if (row != null) {
            Clipboards.copy(row.operationId());
        }
    }

    public void openWizard() {
        if (!model.selection().isEmpty()) {
            wizardOpener.accept(List.copyOf(model.selection()));
        }
    }

    private void withSelectedGroup(Consumer<FingerprintGroup> action) {
        FingerprintGroup group = groupTable.getSelectionModel().getSelectedItem();
        if (group != null) {
            action.accept(group);
        }
    }

    /** Where the wizard opens for the selected entries (set by the screen that owns the wizard). */
    public void onOpenWizard(Consumer<List<DlqRow>> opener) {
        this.wizardOpener = opener;
    }

    public void onOpenGroupWizard(Consumer<FingerprintGroup> opener) {
        this.groupWizardOpener = opener;
    }

    /** Where a whole group's redrive as a durable batch starts (any size; the wizard takes a group's first entries). */
    public void onRedriveGroupAsBatch(Consumer<FingerprintGroup> starter) {
        this.groupBatchStarter = starter;
    }

    public void onExportSelection(Consumer<List<DlqRow>> exporter) {
        this.selectionExporter = exporter;
    }

    public void onExportGroup(Consumer<FingerprintGroup> exporter) {
        this.groupExporter = exporter;
    }

    @FXML private void applyFilter() { model.applyFilter(); }
    @FXML private void clearFilter() { model.clearFilter(); }
    @FXML private void closeGroup() { model.closeGroup(); }
    @FXML private void showNew() { model.showNew(); }

    private static <T extends Enum<T>> void optionBox(ComboBox<T> box, T[] values, String anyText) {
        List<T> options = new java.util.ArrayList<>();
        options.add(null);
        options.addAll(List.of(values));
        box.setItems(FXCollections.observableArrayList(options));
        Callback<javafx.scene.control.ListView<T>, ListCell<T>> cells = list -> new ListCell<>() {
            @Override
            protected void updateItem(T item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty ? null : item == null ? anyText : item.name().replace('_', ' '));
            }
        };
        box.setCellFactory(cells);
        box.setButtonCell(cells.call(null));
    }

    private static MenuItem item(String text, Runnable action) {
        MenuItem item = new MenuItem(text);
        item.setOnAction(event -> action.run());
        return item;
    }
}
