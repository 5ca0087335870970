package dev.redrive.console;

import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.util.Duration;

/** Every two seconds, on the FX thread: what the screens read anew while the console is open (new DLQ entries, counts). */
final class LivePolling {
    private static final Duration PERIOD = Duration.seconds(2);

    private final Timeline timeline;

    LivePolling(Runnable... reads) {
        timeline = new Timeline(new KeyFrame(PERIOD, event -> {
            for (Runnable read : reads) {
                read.run();
            }
        }));
        timeline.setCycleCount(Timeline.INDEFINITE);
    }

    void start() {
        timeline.play();
    }

    void stop() {
        timeline.stop();
    }
}
