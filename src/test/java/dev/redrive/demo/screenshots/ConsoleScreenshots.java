package dev.redrive.demo.screenshots;

import dev.redrive.config.RedriveConfig;
import dev.redrive.console.ConsoleLauncher;
import dev.redrive.demo.sandbox.Sandbox;
import dev.redrive.demo.sandbox.SeedSize;
import javafx.application.Platform;
import javafx.scene.control.ButtonBase;
import javafx.scene.control.Labeled;
import javafx.scene.control.MenuButton;
import javafx.stage.Stage;
import javafx.stage.Window;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Regenerates {@code screenshots/}: seeds the sandbox afresh, opens the console on it in this process (with the demo
 * tools and a worker running, as {@code console --demo} does), walks through the screens and writes one PNG per
 * screen. Run it through {@code installer/screenshots.sh}, which builds the jar and runs this under {@code xvfb-run}.
 *
 * <p>Arguments: {@code [OUTPUT_DIR] [NAMESPACE] [--reuse]}, defaults {@code screenshots} and
 * {@value Sandbox#NAMESPACE}; {@code --reuse} keeps a namespace seeded before instead of re-seeding it.
 */
public final class ConsoleScreenshots {
    private static final Duration WINDOW_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration DATA_TIMEOUT = Duration.ofSeconds(30);

    private final Path output;
    private final List<String> written = new ArrayList<>();
    private final List<String> skipped = new java.util.concurrent.CopyOnWriteArrayList<>();
    private Stage main;

    private ConsoleScreenshots(Path output) {
        this.output = output;
    }

    public static void main(String[] args) {
        Path output = Path.of(args.length > 0 ? args[0] : "screenshots");
        String namespace = args.length > 1 ? args[1] : Sandbox.NAMESPACE;
        RedriveConfig config = RedriveConfig.fromEnvironment(System.getenv()).withNamespace(namespace);
        boolean reuse = List.of(args).contains("--reuse");
        int exit;
        try (Sandbox sandbox = reuse ? Sandbox.openForConsole(config, Clock.systemUTC(), System.out::println)
                : Sandbox.connect(config, Clock.systemUTC(), System.out::println)) {
            if (!reuse) {
                System.out.println(sandbox.reseed(SeedSize.FULL).describe());
                sandbox.startLiveWorkload();
            }
            Thread console = new Thread(() -> ConsoleLauncher.launch(config, true, null), "console");
            console.setDaemon(true);
            console.start();
            exit = new ConsoleScreenshots(output).takeAll();
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
            main.setWidth(1440);
            main.setHeight(900);
        });
        awaitText("#healthDlqOpen", "the queue health panel");
        Fx.pause(Duration.ofSeconds(2));

        shoot("01-main-window", main);
        shootDialog("02-connection-profiles", () -> fireMenuItem("#connectionMenu", "Connection profiles…"));
        shootDialog("03-alert-thresholds", () -> fireButton("Alert thresholds…"));
        shootDark("04-main-window-dark");

        System.out.println("wrote " + written.size() + " screenshot(s) to " + output.toAbsolutePath() + ": " + written);
        if (!skipped.isEmpty()) {
            System.out.println("skipped: " + skipped);
        }
        return written.isEmpty() ? 1 : 0;
    }

    private void shoot(String name, Window window) {
        Fx.snapshot(window, output.resolve(name + ".png"));
        written.add(name + ".png");
    }

    /** Opens a dialog with {@code opener}, photographs the new window, then closes it. */
    private void shootDialog(String name, Runnable opener) {
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
        shoot(name, dialog.get());
        Fx.run(dialog.get()::hide);
    }

    private void shootDark(String name) {
        Optional<javafx.scene.Node> toggle = Fx.lookup(main, "#darkSwitch");
        if (toggle.isEmpty()) {
            skipped.add(name + " (no #darkSwitch)");
            return;
        }
        atlantafx.base.controls.ToggleSwitch dark = (atlantafx.base.controls.ToggleSwitch) toggle.get();
        Fx.run(() -> dark.setSelected(true));
        Fx.pause(Duration.ofSeconds(1));
        shoot(name, main);
        Fx.run(() -> dark.setSelected(false));
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
