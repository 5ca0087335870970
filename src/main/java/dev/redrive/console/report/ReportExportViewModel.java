package dev.redrive.console.report;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.report.IncidentReport;
import dev.redrive.report.ReportFormat;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/** Exports an incident report (one operation, a selection or a group) off the FX thread. */
public final class ReportExportViewModel {
    /** Writes a report in a format to a file; the triage core's report service. */
    @FunctionalInterface
    public interface ReportWriter {
        Path write(IncidentReport report, ReportFormat format, Path file);
    }

    private final ReportWriter writer;
    private final UiExecutor executor;
    private final ReadOnlyBooleanWrapper running = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<Path> written = new ReadOnlyObjectWrapper<>();
    private UiExecutor.Job job;

    public ReportExportViewModel(ReportWriter writer, UiExecutor executor) {
        this.writer = writer;
        this.executor = executor;
    }

    /** Builds the report with {@code source} and writes it; {@code done} gets the file on the UI thread. */
    public void export(String what, Callable<IncidentReport> source, ReportFormat format, Path file, Consumer<Path> done) {
        running.set(true);
        message.set("Exporting " + what + " as " + format.title() + "…");
        job = executor.submit("Exporting the report of " + what, () -> writer.write(source.call(), format, file), path -> {
            running.set(false);
            written.set(path);
            message.set("Saved " + path.toAbsolutePath());
            done.accept(path);
        }, failure -> {
            running.set(false);
            message.set(failure.message());
            executor.report(failure);
        });
    }

    /** Abandons a running export; nothing is reported for it afterwards. */
    public void cancel() {
        if (job != null && running.get()) {
            job.cancel();
            running.set(false);
            message.set("Export cancelled");
        }
    }

    public ReadOnlyBooleanProperty runningProperty() { return running.getReadOnlyProperty(); }
    public ReadOnlyStringProperty messageProperty() { return message.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<Path> writtenProperty() { return written.getReadOnlyProperty(); }
}
