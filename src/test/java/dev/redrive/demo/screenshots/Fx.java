package dev.redrive.demo.screenshots;

import javafx.application.Platform;
import javafx.embed.swing.SwingFXUtils;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.stage.Window;

import javax.imageio.ImageIO;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/** Small helpers for driving a running JavaFX application from another thread. */
final class Fx {
    private Fx() {
    }

    /** Runs {@code work} on the FX thread (right away when already on it) and waits for its result. */
    static <T> T call(Callable<T> work) {
        if (Platform.isFxApplicationThread()) {
            try {
                return work.call();
            } catch (Exception e) {
                throw new IllegalStateException("FX work failed: " + e, e);
            }
        }
        FutureTask<T> task = new FutureTask<>(work);
        Platform.runLater(task);
        try {
            return task.get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the FX thread", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("FX work failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the FX thread did not answer within 30 s", e);
        }
    }

    static void run(Runnable work) {
        call(() -> {
            work.run();
            return null;
        });
    }

    /** Polls {@code probe} (on the FX thread) until it yields a value or {@code timeout} passes. */
    static <T> Optional<T> await(Duration timeout, Supplier<Optional<T>> probe) {
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            Optional<T> found = call(probe::get);
            if (found.isPresent()) {
                return found;
            }
            pause(Duration.ofMillis(250));
        }
        return Optional.empty();
    }

    static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    static List<Window> showingWindows() {
        return call(() -> Window.getWindows().stream().filter(Window::isShowing).toList());
    }

    /** The first node of the window's scene matching a CSS selector. */
    static Optional<Node> lookup(Window window, String selector) {
        return call(() -> Optional.ofNullable(window.getScene()).map(scene -> scene.lookup(selector)));
    }

    /** Writes a snapshot of the window's scene as a PNG. */
    static void snapshot(Window window, Path file) {
        var image = call(() -> {
            Scene scene = window.getScene();
            return SwingFXUtils.fromFXImage(scene.snapshot(null), null);
        });
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            ImageIO.write(image, "png", file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
