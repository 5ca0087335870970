package dev.redrive.demo.screenshots;

import dev.redrive.demo.sandbox.IncidentScenario;
import dev.redrive.config.RedriveConfig;
import dev.redrive.console.ConsoleLauncher;
import dev.redrive.demo.tools.DemoToolServer;
import dev.redrive.console.main.WindowLayout;
import dev.redrive.cli.RedriveCommand;
import dev.redrive.demo.sandbox.Sandbox;
import dev.redrive.demo.sandbox.SeedSize;
import dev.redrive.demo.sandbox.Trickle;
import javafx.application.Platform;
import dev.redrive.model.DecisionState;
import dev.redrive.store.Database;
import dev.redrive.model.FailureClass;
import dev.redrive.model.SideEffectState;
import dev.redrive.triage.query.DlqRow;
import javafx.scene.Node;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonBase;
import javafx.scene.control.RadioButton;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableView;
import javafx.scene.control.TextInputControl;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.Labeled;
import javafx.scene.control.MenuButton;
import javafx.stage.Stage;
import javafx.stage.Window;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Regenerates {@code screenshots/}: seeds the sandbox afresh, opens the console on it in this process (with the demo
 * tools and a worker running, as {@code console --demo} does), walks through the screens and writes one PNG per
 * screen. Run it through {@code installer/screenshots.sh}, which builds the jar and runs this under {@code xvfb-run}.
 *
 * <p>Arguments: {@code [OUTPUT_DIR] [NAMESPACE] [--reuse] [--size WxH]}, defaults {@code screenshots},
 * {@value Sandbox#NAMESPACE} and 1600x1000; {@code --reuse} keeps a namespace seeded before instead of re-seeding it;
 * {@code --size 1280x800} photographs the smallest window the console is made for.
 */
public final class ConsoleScreenshots {
    private static final Duration WINDOW_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration DATA_TIMEOUT = Duration.ofSeconds(30);
    /** The window size of every screenshot unless {@code --size} says otherwise; the script's screen is bigger. */
    private static final String DEFAULT_SIZE = "1600x1000";

    private final Path output;
    private final int width;
    private final int height;
    private final Set<String> recoverable;
    private final RedriveConfig config;
    private final List<String> written = new ArrayList<>();
    private final List<String> skipped = new java.util.concurrent.CopyOnWriteArrayList<>();
    private Stage main;

    private ConsoleScreenshots(Path output, Set<String> recoverable, String size, RedriveConfig config) {
        this.output = output;
        this.recoverable = recoverable;
        this.config = config;
        String[] parts = size.split("x");
        if (parts.length != 2) {
            throw new IllegalArgumentException("--size must be WIDTHxHEIGHT, e.g. 1280x800, got '" + size + "'");
        }
        this.width = Integer.parseInt(parts[0]);
        this.height = Integer.parseInt(parts[1]);
    }

    /** Open entries whose dependency has recovered since (their fault count is used up): a redrive of one succeeds. */
    private static Set<String> recoverableEntries(RedriveConfig config) {
        try (Database database = Database.open(config, 1)) {
            return Set.copyOf(database.jdbc().query("""
                    SELECT operation_id FROM dlq_entries
                     WHERE decision_state = 'OPEN' AND run_id LIKE 'billing-%' AND payload->>'fault' LIKE 'transient:%'
                    """, row -> row.getString(1)));
        }
    }

    public static void main(String[] args) {
        Path output = Path.of(args.length > 0 ? args[0] : "screenshots");
        String namespace = args.length > 1 ? args[1] : Sandbox.NAMESPACE;
        RedriveConfig config = RedriveConfig.fromEnvironment(System.getenv()).withNamespace(namespace);
        boolean reuse = List.of(args).contains("--reuse");
        int sizeAt = List.of(args).indexOf("--size");
        String size = sizeAt >= 0 && sizeAt + 1 < args.length ? args[sizeAt + 1] : DEFAULT_SIZE;
        int exit;
        try (Sandbox sandbox = reuse ? Sandbox.openForConsole(config, Clock.systemUTC(), System.out::println, Trickle.DEFAULT)
                : Sandbox.connect(config, Clock.systemUTC(), System.out::println)) {
            if (!reuse) {
                System.out.println(sandbox.reseed(SeedSize.FULL).describe());
                sandbox.startLiveWorkload(Trickle.DEFAULT);
            }
            Set<String> recoverable = recoverableEntries(config);
            Map<String, String> lookups = sandbox.lookupEndpointUrls();
            Thread console = new Thread(() -> ConsoleLauncher.launch(config, true, null, lookups, DemoToolServer::lookupEndpoints), "console");
            console.setDaemon(true);
            console.start();
            exit = new ConsoleScreenshots(output, recoverable, size, config).takeAll();
            Platform.exit();
        }
        System.exit(exit);
    }

    private int takeAll() {
        main = (Stage) Fx.await(WINDOW_TIMEOUT, () -> Fx.showingWindows().stream()
                        .filter(window -> window instanceof Stage stage && stage.getTitle() != null
                                && stage.getTitle().startsWith("Redrive"))
                        .findFirst())
                .orElseThrow(() -> new IllegalStateException("the console window did not open within " + WINDOW_TIMEOUT));
        Fx.run(() -> {
            main.setX(0);
            main.setY(0);
            main.setWidth(width);
            main.setHeight(height);
            // The split a new user sees, not the one the last run (at the other size) left remembered.
            if (main.getScene().lookup("#mainSplit") instanceof SplitPane split) {
                split.setDividerPositions(WindowLayout.DEFAULT.browserDivider());
            }
        });
        awaitText("#healthDlqOpen", "the queue health panel");
        Fx.pause(Duration.ofSeconds(2));

        awaitRows("#dlqTable");
        shoot("01-dlq-entries", main);
        shootDetail("02-detail-possible-side-effect", row -> row.sideEffect() == SideEffectState.POSSIBLE
                && row.decisionState() == DecisionState.OPEN);
        shootDetail("03-detail-schema-changed", row -> row.tool().equals("demo.ship")
                && row.errorClass() == FailureClass.INVALID_INPUT);
        shootDetail("04-detail-redriven", row -> row.decisionState() == DecisionState.REDRIVEN);
        shootGroups("05-dlq-groups");
        shootWizard(row -> row.sideEffect() == SideEffectState.POSSIBLE && row.decisionState() == DecisionState.OPEN
                        && row.tool().equals("demo.charge"),
                "06-wizard-evidence", "07-wizard-reconcile-with-tool", "08-wizard-preconditions");
        shootRedrive(row -> recoverable.contains(row.operationId()), "09-wizard-decision", "10-wizard-result-redriven-once");
        shootWizard(row -> row.runId().startsWith("backfill-") && row.decisionState() == DecisionState.OPEN,
                null, null, "11-wizard-blocked-cancelled-run");
        shootWizard(row -> row.runId().startsWith("refunds-") && row.decisionState() == DecisionState.OPEN,
                null, null, "12-wizard-blocked-revoked-approval");
        shootRemedy(row -> row.tool().equals("demo.ship") && row.errorClass() == FailureClass.INVALID_INPUT
                        && row.decisionState() == DecisionState.OPEN, "#remedy-choose-schema",
                "demo.ship version 2 takes the same fields; redrive with it",
                "16-wizard-remedy-schema-changed", "17-wizard-confirm", "18-wizard-result");
        shootDetail("19-detail-entry-without-operation", row -> !row.ownEntry());
        shootWizard(row -> !row.ownEntry() && row.decisionState() == DecisionState.OPEN,
                null, null, "20-wizard-entry-without-operation");
        shootCorrection(row -> row.runId().startsWith(IncidentScenario.CHECKOUT_RUN_PREFIX)
                && row.decisionState() == DecisionState.OPEN, "21-wizard-correct-payload", "22-wizard-result-corrected");
        shootDialog("23-requests-pending", () -> fire("#requestsBadge"), ConsoleScreenshots::selectFirstRequest);
        shootDialog("13-connection-profiles", () -> fireMenuItem("#connectionMenu", "Connection profiles…"));
        shootDialog("14-alert-thresholds", () -> fireButton("Alert thresholds…"));
        shootDark("15-dark-theme");
        runGroupBatch();
        shootDialog("24-batch-outcomes", () -> fire("#batchesBadge"), ConsoleScreenshots::selectFirstBatch);
        dark(true);
        shootWizard(row -> row.sideEffect() == SideEffectState.POSSIBLE && row.decisionState() == DecisionState.OPEN
                        && row.tool().equals("demo.charge") && !row.runId().startsWith("live-"),
                "25-dark-wizard-evidence", null, "26-dark-wizard-preconditions");
        shootDialog("27-dark-batch-outcomes", () -> fire("#batchesBadge"), ConsoleScreenshots::selectFirstBatch);
        dark(false);

        System.out.println("wrote " + written.size() + " screenshot(s) to " + output.toAbsolutePath() + ": " + written);
        if (!skipped.isEmpty()) {
            System.out.println("skipped: " + skipped);
        }
        return written.isEmpty() ? 1 : 0;
    }

    /** Selects the first entry of the flat list that matches, waits for its detail, photographs the window. */
    private void shootDetail(String name, Predicate<DlqRow> which) {
        if (!select(which)) {
            skipped.add(name + " (no matching entry on the first page)");
            return;
        }
        awaitText("#detailOperationId", "the operation detail");
        Fx.pause(Duration.ofSeconds(2));
        shoot(name, main);
    }

    /**
     * Opens the reconciliation wizard on the first matching entry and photographs its first three pages (a null name
     * skips that page's picture); on the reconcile page it asks the tool first.
     */
    private void shootWizard(Predicate<DlqRow> which, String evidence, String reconcile, String preconditions) {
        Optional<Window> wizard = openWizard(which, preconditions);
        if (wizard.isEmpty()) {
            return;
        }
        if (evidence != null) {
            shoot(evidence, wizard.get());
        }
        next(wizard.get());
        fire(wizard.get(), "#askTool");
        Fx.pause(Duration.ofSeconds(3));
        if (reconcile != null) {
            shoot(reconcile, wizard.get());
        }
        next(wizard.get());
        Fx.pause(Duration.ofSeconds(3));
        shoot(preconditions, wizard.get());
        Fx.run(wizard.get()::hide);
        Fx.pause(Duration.ofSeconds(1));
    }

    /**
     * Walks the wizard through a redrive that passes every check: evidence, reconcile (nothing to settle),
     * preconditions, the decision with its reason (photographed), then the result once the worker has run it.
     */
    private void shootRedrive(Predicate<DlqRow> which, String decision, String result) {
        Optional<Window> opened = openAtDecision(which, result);
        if (opened.isEmpty()) {
            return;
        }
        Window wizard = opened.get();
        Fx.run(() -> {
            choose(wizard, "#decisionRedrive");
            type(wizard, "#decisionReason",
                    "the payment processor has recovered (status page: resolved 01:10); redrive this charge once");
        });
        Fx.pause(Duration.ofSeconds(1));
        shoot(decision, wizard);
        issueAndShootResult(wizard, result);
    }

    /**
     * Takes a blocked case to its decision: the failed check with its remedy (photographed), the remedy taken, the
     * decision step's confirmation with its reason, and the result once the worker has run it.
     */
    private void shootRemedy(Predicate<DlqRow> which, String remedySelector, String reason, String remedy,
                             String confirm, String result) {
        Optional<Window> opened = openWizard(which, remedy);
        if (opened.isEmpty()) {
            return;
        }
        Window wizard = opened.get();
        nextPages(wizard, 1, 3);
        shoot(remedy, wizard);
        fire(wizard, remedySelector);
        Fx.pause(Duration.ofSeconds(3));
        // A remedy that decides instead moves on by itself; choosing a schema version checks again and stays.
        if (Fx.lookup(wizard, "#decisionReason").isEmpty()) {
            nextPages(wizard, 1);
        }
        Fx.run(() -> type(wizard, "#decisionReason", reason));
        Fx.pause(Duration.ofSeconds(1));
        shoot(confirm, wizard);
        issueAndShootResult(wizard, result);
    }

    /**
     * Corrects the checkout charge whose amount was sent as text: the editor with the amount made a number beside the
     * original (photographed, secrets masked on both sides), then the result once the worker has run the correction.
     */
    private void shootCorrection(Predicate<DlqRow> which, String editor, String result) {
        Optional<Window> opened = openAtDecision(which, editor);
        if (opened.isEmpty()) {
            return;
        }
        Window wizard = opened.get();
        Fx.run(() -> choose(wizard, "#decisionCorrect"));
        Fx.pause(Duration.ofSeconds(1));
        Fx.run(() -> {
            if (wizard.getScene().lookup("#correctedPayload") instanceof TextInputControl payload) {
                payload.setText(payload.getText().replaceAll("\"amount\" : \"([0-9.]+) EUR\"", "\"amount\" : $1"));
            }
            type(wizard, "#decisionReason",
                    "checkout 4.12 sent the amount as text; the same charge with the amount as a number");
        });
        Fx.pause(Duration.ofSeconds(2));
        shoot(editor, wizard);
        issueAndShootResult(wizard, result);
    }

    /** Issues the decision of the last step, lets the worker run it, and photographs the result. */
    private void issueAndShootResult(Window wizard, String result) {
        next(wizard);
        Fx.pause(Duration.ofSeconds(6));
        fire(wizard, "#verifyRedrive");
        Fx.pause(Duration.ofSeconds(2));
        shoot(result, wizard);
        Fx.run(wizard::hide);
        Fx.pause(Duration.ofSeconds(1));
    }

    /** Clicks the button {@code selector} names, when the wizard shows one. */
    private static void fire(Window wizard, String selector) {
        Fx.lookup(wizard, selector).filter(ButtonBase.class::isInstance).map(ButtonBase.class::cast)
                .ifPresent(button -> Fx.run(button::fire));
    }

    /** Selects the first matching entry and opens the wizard on it from the detail pane. */
    private Optional<Window> openWizard(Predicate<DlqRow> which, String name) {
        if (!select(which)) {
            skipped.add(name + " (no matching entry on the first page)");
            return Optional.empty();
        }
        awaitText("#detailOperationId", "the operation detail");
        Fx.pause(Duration.ofSeconds(1));
        List<Window> before = Fx.showingWindows();
        Platform.runLater(() -> fire("#openWizard"));
        Optional<Window> wizard = Fx.await(Duration.ofSeconds(15), () -> Fx.showingWindows().stream()
                .filter(window -> !before.contains(window)).findFirst());
        if (wizard.isEmpty()) {
            skipped.add(name + " (the wizard did not open)");
            return Optional.empty();
        }
        Fx.pause(Duration.ofSeconds(2));
        return wizard;
    }

    /** Opens the wizard as {@link #openWizard} does and walks it past evidence, reconcile and preconditions. */
    private Optional<Window> openAtDecision(Predicate<DlqRow> which, String name) {
        Optional<Window> wizard = openWizard(which, name);
        wizard.ifPresent(opened -> nextPages(opened, 1, 2, 1));
        return wizard;
    }

    /** Presses Next once per pause given, waiting that many seconds after each press for the page to settle. */
    private static void nextPages(Window wizard, int... pauseSeconds) {
        for (int seconds : pauseSeconds) {
            next(wizard);
            Fx.pause(Duration.ofSeconds(seconds));
        }
    }

    /** On the FX thread: selects the radio button {@code selector} names, when the wizard shows one. */
    private static void choose(Window wizard, String selector) {
        if (wizard.getScene().lookup(selector) instanceof RadioButton radio) {
            radio.setSelected(true);
        }
    }

    /** On the FX thread: types {@code text} into the field {@code selector} names, when the wizard shows one. */
    private static void type(Window wizard, String selector, String text) {
        if (wizard.getScene().lookup(selector) instanceof TextInputControl field) {
            field.setText(text);
        }
    }

    /** Presses the wizard's Next (or Finish) button, looked up by its button data, not its text. */
    private static void next(Window wizard) {
        Fx.run(() -> wizard.getScene().getRoot().lookupAll(".button").stream()
                .filter(node -> ButtonBar.getButtonData(node) == ButtonBar.ButtonData.NEXT_FORWARD
                        || ButtonBar.getButtonData(node) == ButtonBar.ButtonData.FINISH)
                .map(ButtonBase.class::cast)
                .filter(button -> !button.isDisabled())
                .findFirst()
                .ifPresent(ButtonBase::fire));
    }

    private void shootGroups(String name) {
        if (!press("#groupedView")) {
            skipped.add(name + " (no #groupedView)");
            return;
        }
        awaitRows("#groupTable");
        Fx.pause(Duration.ofSeconds(1));
        shoot(name, main);
        press("#flatView");
    }

    /** Presses a toggle button the way a click does (its action runs), unless it is already down. */
    private boolean press(String selector) {
        Optional<ToggleButton> toggle = Fx.lookup(main, selector)
                .filter(ToggleButton.class::isInstance).map(ToggleButton.class::cast);
        toggle.ifPresent(button -> Fx.run(() -> {
            if (!button.isSelected()) {
                button.fire();
            }
        }));
        return toggle.isPresent();
    }

    /** Selects the first entry of the flat list that matches. */
    private boolean select(Predicate<DlqRow> which) {
        press("#flatView");
        Optional<TableView<DlqRow>> table = dlqTable();
        return table.isPresent() && Fx.call(() -> {
            TableView<DlqRow> rows = table.get();
            for (int i = 0; i < rows.getItems().size(); i++) {
                if (which.test(rows.getItems().get(i))) {
                    rows.getSelectionModel().clearAndSelect(i);
                    rows.scrollTo(Math.max(0, i - 3));
                    return true;
                }
            }
            return false;
        });
    }

    private void fire(String selector) {
        Node node = main.getScene().lookup(selector);
        if (node instanceof ButtonBase button) {
            button.fire();
        }
    }

    @SuppressWarnings("unchecked")
    private Optional<TableView<DlqRow>> dlqTable() {
        return Fx.lookup(main, "#dlqTable").filter(TableView.class::isInstance).map(node -> (TableView<DlqRow>) node);
    }

    private void awaitRows(String selector) {
        Fx.await(DATA_TIMEOUT, () -> Fx.lookup(main, selector)
                        .filter(node -> node instanceof TableView<?> table && !table.getItems().isEmpty()))
                .orElseThrow(() -> new IllegalStateException(selector + " showed no rows within " + DATA_TIMEOUT));
    }

    private void shoot(String name, Window window) {
        Fx.snapshot(window, output.resolve(name + ".png"));
        written.add(name + ".png");
    }

    /** Opens a dialog with {@code opener}, photographs the new window, then closes it. */
    private void shootDialog(String name, Runnable opener) {
        shootDialog(name, opener, dialog -> { });
    }

    /** The same, with {@code prepare} run on the FX thread once the dialog shows (a row chosen, say). */
    private void shootDialog(String name, Runnable opener, java.util.function.Consumer<Window> prepare) {
        List<Window> before = Fx.showingWindows();
        // Not waited for: a dialog shown with showAndWait would hold the opener until it closes.
        Platform.runLater(() -> {
            try {
                opener.run();
            } catch (IllegalStateException e) {
                skipped.add(name + " (" + e.getMessage() + ")");
            }
        });
        Optional<Window> dialog = Fx.await(Duration.ofSeconds(10), () -> Fx.showingWindows().stream()
                .filter(window -> !before.contains(window)).findFirst());
        if (dialog.isEmpty()) {
            if (skipped.stream().noneMatch(entry -> entry.startsWith(name))) {
                skipped.add(name + " (no window opened)");
            }
            return;
        }
        Fx.pause(Duration.ofSeconds(1));
        Fx.run(() -> prepare.accept(dialog.get()));
        Fx.pause(Duration.ofSeconds(1));
        shoot(name, dialog.get());
        Fx.run(dialog.get()::hide);
    }

    /** Selects the first request of the requests list, as an approver about to approve it would. */
    private static void selectFirstRequest(Window dialog) {
        selectFirstRow(dialog, "#requestsTable");
    }

    /** Selects the first row of the table {@code selector} names, when the dialog shows one with rows. */
    private static void selectFirstRow(Window dialog, String selector) {
        if (dialog.getScene().lookup(selector) instanceof TableView<?> table && !table.getItems().isEmpty()) {
            table.getSelectionModel().select(0);
        }
    }

    private void shootDark(String name) {
        dark(true);
        shoot(name, main);
        dark(false);
    }

    /** Turns the dark theme on or off with the toolbar's switch, as an operator does. */
    private void dark(boolean on) {
        Fx.lookup(main, "#darkSwitch").map(atlantafx.base.controls.ToggleSwitch.class::cast)
                .ifPresentOrElse(toggle -> Fx.run(() -> toggle.setSelected(on)), () -> skipped.add("dark theme (no #darkSwitch)"));
        Fx.pause(Duration.ofSeconds(1));
    }

    /**
     * Redrives the largest open group of operations as {@code redrive --group} does, from this process, so the batches
     * list has a batch whose items the worker then runs: some succeed, some fail again, some are blocked.
     */
    private void runGroupBatch() {
        Optional<String> fingerprint;
        try (Database database = Database.open(config, 1)) {
            fingerprint = database.jdbc().queryOne("""
                    SELECT error_fingerprint FROM dlq_entries
                     WHERE decision_state = 'OPEN' AND operation_id IS NOT NULL AND run_id LIKE 'billing-%'
                     GROUP BY error_fingerprint ORDER BY count(*) DESC LIMIT 1""", row -> row.getString(1));
        }
        if (fingerprint.isEmpty()) {
            skipped.add("24-batch-outcomes (no open group)");
            return;
        }
        int exit = RedriveCommand.commandLine().execute("-n", config.namespace(), "redrive", "--group",
                fingerprint.get(), "--reason", "ledger is back: redrive the group", "--operator", "ana");
        System.out.println("redrive --group " + fingerprint.get() + " exited " + exit);
        // Time for the worker to run the redriven items, so the outcomes are more than "still running".
        Fx.pause(Duration.ofSeconds(8));
    }

    /** Selects the newest batch of the batches list, whose items' outcomes then show under it. */
    private static void selectFirstBatch(Window dialog) {
        selectFirstRow(dialog, "#batchesTable");
    }

    private void awaitText(String selector, String what) {
        Fx.await(DATA_TIMEOUT, () -> Fx.lookup(main, selector)
                        .filter(node -> node instanceof Labeled labeled && !labeled.getText().isBlank()))
                .orElseThrow(() -> new IllegalStateException(what + " (" + selector + ") showed nothing within " + DATA_TIMEOUT));
    }

    private void fireMenuItem(String menuSelector, String itemText) {
        MenuButton menu = (MenuButton) main.getScene().lookup(menuSelector);
        if (menu == null) {
            throw new IllegalStateException("no " + menuSelector);
        }
        menu.getItems().stream().filter(item -> itemText.equals(item.getText())).findFirst()
                .orElseThrow(() -> new IllegalStateException("no menu item '" + itemText + "'"))
                .fire();
    }

    private void fireButton(String text) {
        main.getScene().getRoot().lookupAll(".button").stream()
                .filter(node -> node instanceof ButtonBase button && text.equals(button.getText()))
                .map(ButtonBase.class::cast)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no button '" + text + "'"))
                .fire();
    }
}
