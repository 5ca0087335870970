package dev.redrive.console.batch;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.ui.CountText;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.decision.durable.BatchState;
import dev.redrive.triage.decision.durable.DurableBatch;
import dev.redrive.triage.decision.durable.DurableBatchListener;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyLongWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The durable batches of the namespace, whichever process started them (the CLI's {@code redrive --group}, an approved
 * request, this console): how far each got, how fast it goes and how long it still takes, read again while the list
 * is open; Stop asks the batch to end before its next chunk, Resume works a stopped or abandoned one off here, from
 * where it stood. The batch's own row is the truth: what this list shows is always read back from it.
 */
public final class BatchesViewModel {
    /** How many of the newest batches the list shows. */
    static final int SHOWN = 50;

    private final BatchesBackend backend;
    private final UiExecutor executor;
    private final Clock clock;
    private final BatchRates rates = new BatchRates();
    private final ObservableList<BatchRow> rows = FXCollections.observableArrayList();
    private final ObjectProperty<BatchRow> selected = new SimpleObjectProperty<>();
    private final ReadOnlyLongWrapper running = new ReadOnlyLongWrapper();
    private final ReadOnlyStringWrapper badge = new ReadOnlyStringWrapper("Batches");
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("");
    /** The batches this console runs, and whether their operator asked them to stop. */
    private final Map<Long, Boolean> runHere = new ConcurrentHashMap<>();
    private Runnable afterBatch = () -> { };
    private boolean reading;

    public BatchesViewModel(BatchesBackend backend, UiExecutor executor, Clock clock) {
        this.backend = backend;
        this.executor = executor;
        this.clock = clock;
        running.addListener((obs, was, now) -> badge.set(now.longValue() == 0 ? "Batches"
                : "Batches: " + now + " running"));
    }

    /** Reads the newest batches again (the list polls it each second while it is open, the badge with live updates). */
    public void refresh() {
        if (reading) {
            return;
        }
        reading = true;
        executor.submit("Reading the batches", () -> backend.newest(SHOWN), batches -> {
            reading = false;
            show(batches);
        }, failure -> {
            reading = false;
            message.set(failure.message());
        });
    }

    private void show(List<DurableBatch> batches) {
        Instant now = clock.instant();
        Long was = selected.get() == null ? null : selected.get().id();
        List<BatchRow> read = batches.stream().map(batch -> new BatchRow(batch, rates.observe(batch, now),
                runHere.containsKey(batch.id()), now)).toList();
        rows.setAll(read);
        running.set(read.stream().filter(row -> row.batch().state() == BatchState.RUNNING
                && (row.runHere() || row.batch().heldAt(now))).count());
        selected.set(was == null ? null : read.stream().filter(row -> row.id() == was).findFirst().orElse(null));
    }

    /**
     * Runs on the FX thread each time a batch this console ran ends, however it ended: the entries it decided show
     * elsewhere (group counts, entry states) and are read again there.
     */
    public void onBatchEnded(Runnable action) {
        afterBatch = action;
    }

    /** Works the selected batch off in this console, from where it stands. */
    public void resume() {
        BatchRow row = selected.get();
        if (row == null || !row.resumable()) {
            message.set("Choose a stopped, failed or abandoned batch to resume it.");
            return;
        }
        runHere(row.id(), "Batch " + row.id() + " resumed here: "
                + CountText.of(row.batch().remaining(), "item", "items") + " to go.");
    }

    /**
     * Redrives every open entry of a fingerprint group as a durable batch run here (or records the request the
     * four-eyes policy makes of it): closing the console stops it between chunks, and Resume here goes on with it.
     */
    public void startGroup(String fingerprint, String operator, String reason, double itemsPerSecond) {
        message.set("Starting the redrive of group " + fingerprint + "…");
        executor.submit("Starting the redrive of group " + fingerprint,
                () -> backend.startGroup(fingerprint, operator, reason, itemsPerSecond), started -> {
                    if (started.request() != null) {
                        message.set(started.request().message());
                        return;
                    }
                    DurableBatch batch = started.batch();
                    runHere(batch.id(), "Batch " + batch.id() + " started here: redrive of "
                            + CountText.of(batch.total(), "open entry", "open entries") + " of group " + fingerprint
                            + ".");
                }, failure -> message.set(failure.message()));
    }

    private void runHere(long id, String startedLine) {
        runHere.put(id, false);
        message.set(startedLine);
        executor.submit("Running batch " + id, () -> backend.resume(id, new DurableBatchListener() {
            @Override
            public void itemDone(int done, int total, DecisionResult result) {
                // Progress is read back from the batch's row, as for a batch of another process.
            }

            @Override
            public boolean stopRequested() {
                return Boolean.TRUE.equals(runHere.get(id));
            }
        }), ended -> {
            runHere.remove(id);
            message.set("Batch " + id + " " + ended.state() + ": " + ended.done() + " of " + ended.total()
                    + " items taken, " + ended.succeeded() + " decided, " + ended.blocked() + " blocked"
                    + (ended.error() == null ? "" : "; " + ended.error()));
            refresh();
            afterBatch.run();
        }, failure -> {
            runHere.remove(id);
            message.set("Batch " + id + ": " + failure.message());
            refresh();
            afterBatch.run();
        });
        refresh();
    }

    /** Stops the selected batch before its next chunk: at once when this console runs it, else through its row. */
    public void stop() {
        BatchRow row = selected.get();
        if (row == null || !row.stoppable()) {
            message.set("Choose a running batch to stop it.");
            return;
        }
        long id = row.id();
        if (runHere.containsKey(id)) {
            runHere.put(id, true);
            message.set("Batch " + id + " stops after the chunk in hand.");
            return;
        }
        executor.submit("Stopping batch " + id, () -> backend.stop(id), batch -> {
            message.set("Batch " + id + " asked to stop: the process running it stops before its next chunk.");
            refresh();
        });
    }

    public ObservableList<BatchRow> rows() {
        return FXCollections.unmodifiableObservableList(rows);
    }

    public ObjectProperty<BatchRow> selectedProperty() {
        return selected;
    }

    /** How many batches run now, here or elsewhere. */
    public ReadOnlyLongProperty runningProperty() {
        return running.getReadOnlyProperty();
    }

    /** "Batches", or "Batches: 2 running". */
    public ReadOnlyStringProperty badgeProperty() {
        return badge.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }
}
