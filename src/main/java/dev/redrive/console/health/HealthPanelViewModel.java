package dev.redrive.console.health;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.ui.CountText;
import dev.redrive.health.Durations;
import dev.redrive.health.HealthAlert;
import dev.redrive.health.HealthThresholds;
import dev.redrive.health.PrometheusThroughput;
import dev.redrive.health.QueueHealth;
import dev.redrive.health.ToolThroughput;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Queue health as the panel shows it: each number as text, the alerts the thresholds raise, and a banner. A newly
 * crossed threshold is handed to the alert listener once per episode (for a desktop notification), not on every
 * refresh nor on every crossing of a threshold it hovers around. With a
 * Prometheus server in the profile, also each tool's throughput and failure rate over the last hour, with one line
 * saying when they were read or why they could not be.
 */
public final class HealthPanelViewModel {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

    /** Reads one health snapshot; runs in the background. */
    @FunctionalInterface
    public interface HealthSource {
        QueueHealth read();
    }

    /** Reads each tool's throughput over the last hour, busiest first; runs in the background. */
    @FunctionalInterface
    public interface ThroughputSource {
        List<ToolThroughput> read();
    }

    private final HealthSource source;
    private final ThroughputSource throughputSource;
    private final UiExecutor executor;
    private final ReadOnlyObjectWrapper<QueueHealth> health = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<HealthThresholds> thresholds = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper dispatchLength = new ReadOnlyStringWrapper("–");
    private final ReadOnlyStringWrapper lag = new ReadOnlyStringWrapper("–");
    private final ReadOnlyStringWrapper pending = new ReadOnlyStringWrapper("–");
    private final ReadOnlyStringWrapper pendingDetail = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper retrySet = new ReadOnlyStringWrapper("–");
    private final ReadOnlyStringWrapper nextRetry = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper dlqOpen = new ReadOnlyStringWrapper("–");
    private final ReadOnlyStringWrapper dlqGrowth = new ReadOnlyStringWrapper("–");
    private final ReadOnlyStringWrapper oldestOpen = new ReadOnlyStringWrapper("–");
    private final ReadOnlyStringWrapper updated = new ReadOnlyStringWrapper("not read yet");
    private final ReadOnlyStringWrapper banner = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper alerting = new ReadOnlyBooleanWrapper();
    private final ObservableList<HealthAlert> alerts = FXCollections.observableArrayList();
    private final ObservableList<ToolThroughput> throughput = FXCollections.observableArrayList();
    private final ObservableList<ToolThroughput> readOnlyThroughput = FXCollections.unmodifiableObservableList(throughput);
    private final ReadOnlyStringWrapper throughputStatus = new ReadOnlyStringWrapper("not read yet");
    private boolean readingThroughput;
    private final AlertEpisodes episodes = new AlertEpisodes();
    private Consumer<HealthAlert> alertListener = alert -> { };
    private boolean reading;

    public HealthPanelViewModel(HealthSource source, UiExecutor executor, HealthThresholds thresholds) {
        this(source, null, executor, thresholds);
    }

    /** {@code throughputSource} null: no Prometheus server is configured, and the panel shows no throughput. */
    public HealthPanelViewModel(HealthSource source, ThroughputSource throughputSource, UiExecutor executor,
                                HealthThresholds thresholds) {
        this.source = source;
        this.throughputSource = throughputSource;
        this.executor = executor;
        this.thresholds.set(thresholds);
    }

    /** Whether the panel shows per-tool throughput at all: only with a Prometheus server configured. */
    public boolean showsThroughput() {
        return throughputSource != null;
    }

    /**
     * Reads the throughput in the background; a refresh while one is running is skipped. A failure (Prometheus down,
     * a wrong URL) is one line in {@link #throughputStatusProperty()}, the numbers last read stay.
     */
    public void refreshThroughput() {
        if (throughputSource == null || readingThroughput) {
            return;
        }
        readingThroughput = true;
        executor.submit("Reading throughput from Prometheus", throughputSource::read, tools -> {
            readingThroughput = false;
            throughput.setAll(tools);
            throughputStatus.set(tools.isEmpty() ? "no attempts in the last hour" + " · read " + TIME.format(Instant.now())
                    : "last hour · read " + TIME.format(Instant.now()));
        }, failure -> {
            readingThroughput = false;
            throughputStatus.set(failure.error() instanceof PrometheusThroughput.PrometheusUnavailableException
                    ? failure.error().getMessage() : failure.message());
        });
    }

    /** {@code 12.5/s}, {@code 0.04/s}: attempts per second as a tool's row shows them. */
    public static String perSecond(double attemptsPerSecond) {
        return (attemptsPerSecond >= 10 ? String.format(Locale.ROOT, "%.0f", attemptsPerSecond)
                : attemptsPerSecond >= 1 ? String.format(Locale.ROOT, "%.1f", attemptsPerSecond)
                : String.format(Locale.ROOT, "%.2f", attemptsPerSecond)) + "/s";
    }

    /** {@code 3.2% failed}: the share of a tool's attempts that did not succeed. */
    public static String failedShare(double failureRatio) {
        return String.format(Locale.ROOT, "%.1f%% failed", failureRatio * 100);
    }

    /** Called once for each threshold that becomes crossed, again only after it stayed clear for a while (an episode). */
    public void onNewAlert(Consumer<HealthAlert> listener) {
        this.alertListener = listener;
    }

    /** Reads the queues in the background; a refresh while one is running is skipped. */
    public void refresh() {
        if (reading) {
            return;
        }
        reading = true;
        executor.submit("Reading queue health", source::read, snapshot -> {
            reading = false;
            apply(snapshot);
        }, failure -> {
            reading = false;
            updated.set("read failed at " + TIME.format(java.time.Instant.now()));
            executor.report(failure);
        });
    }

    public void setThresholds(HealthThresholds newThresholds) {
        thresholds.set(newThresholds);
        if (health.get() != null) {
            evaluate(health.get());
        }
    }

    void apply(QueueHealth reading) {
        health.set(reading);
        dispatchLength.set(CountText.number(reading.dispatchLength()));
        lag.set(reading.groupLag() == null ? "?" : CountText.number(reading.groupLag()));
        pending.set(CountText.number(reading.pendingCount()));
        // "Pending" alone did not say of what: with none to time, the line says what the tile counts.
        pendingDetail.set(reading.oldestPendingIdle() == null ? "delivered, not acked"
                : "oldest idle " + Durations.human(reading.oldestPendingIdle()));
        retrySet.set(CountText.number(reading.retrySetSize()));
        nextRetry.set(reading.nextRetryDue() == null ? "none scheduled"
                : "next due " + TIME.format(reading.nextRetryDue()));
        dlqOpen.set(CountText.number(reading.dlqOpen()));
        dlqGrowth.set(CountText.number(reading.dlqNewLastMinute()) + "/min · "
                + CountText.number(reading.dlqNewLastHour()) + "/h");
        oldestOpen.set(Durations.human(reading.oldestOpenAge()));
        updated.set("updated " + TIME.format(reading.at()));
        evaluate(reading);
    }

    private void evaluate(QueueHealth reading) {
        List<HealthAlert> now = thresholds.get().check(reading);
        alerts.setAll(now);
        episodes.starting(now, reading.at()).forEach(alertListener);
        alerting.set(!now.isEmpty());
        banner.set(now.stream().map(HealthAlert::message).collect(Collectors.joining(" · ")));
    }

    /** The pending deliveries looked at, one line each, most idle first. */
    public String pendingListing() {
        QueueHealth reading = health.get();
        if (reading == null || reading.pending().isEmpty()) {
            return "No pending deliveries";
        }
        return reading.pending().stream()
                .map(p -> p.entryId() + "  " + p.consumer() + "  idle " + Durations.human(p.idle())
                        + "  delivered " + p.deliveryCount() + "×")
                .collect(Collectors.joining("\n"));
    }

    public static Duration defaultPeriod() {
        return Duration.ofSeconds(5);
    }

    /** How often Prometheus is asked: its numbers cover an hour and move with its scrapes, not every few seconds. */
    public static Duration throughputPeriod() {
        return Duration.ofSeconds(30);
    }

    public ReadOnlyObjectProperty<QueueHealth> healthProperty() { return health.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<HealthThresholds> thresholdsProperty() { return thresholds.getReadOnlyProperty(); }
    public ReadOnlyStringProperty dispatchLengthProperty() { return dispatchLength.getReadOnlyProperty(); }
    public ReadOnlyStringProperty lagProperty() { return lag.getReadOnlyProperty(); }
    public ReadOnlyStringProperty pendingProperty() { return pending.getReadOnlyProperty(); }
    public ReadOnlyStringProperty pendingDetailProperty() { return pendingDetail.getReadOnlyProperty(); }
    public ReadOnlyStringProperty retrySetProperty() { return retrySet.getReadOnlyProperty(); }
    public ReadOnlyStringProperty nextRetryProperty() { return nextRetry.getReadOnlyProperty(); }
    public ReadOnlyStringProperty dlqOpenProperty() { return dlqOpen.getReadOnlyProperty(); }
    public ReadOnlyStringProperty dlqGrowthProperty() { return dlqGrowth.getReadOnlyProperty(); }
    public ReadOnlyStringProperty oldestOpenProperty() { return oldestOpen.getReadOnlyProperty(); }
    public ReadOnlyStringProperty updatedProperty() { return updated.getReadOnlyProperty(); }
    public ReadOnlyStringProperty bannerProperty() { return banner.getReadOnlyProperty(); }
    public ReadOnlyBooleanProperty alertingProperty() { return alerting.getReadOnlyProperty(); }
    public ObservableList<HealthAlert> alerts() { return FXCollections.unmodifiableObservableList(alerts); }
    /** Per tool, busiest first, as last read from Prometheus. */
    public ObservableList<ToolThroughput> throughput() { return readOnlyThroughput; }
    /** When the throughput was read, or in one line why it could not be. */
    public ReadOnlyStringProperty throughputStatusProperty() { return throughputStatus.getReadOnlyProperty(); }
}
