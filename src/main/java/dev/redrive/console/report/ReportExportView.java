package dev.redrive.console.report;

import dev.redrive.report.IncidentReport;
import dev.redrive.report.ReportFormat;
import javafx.application.HostServices;
import javafx.scene.control.Alert;
import javafx.scene.control.ButtonType;
import javafx.scene.control.ChoiceDialog;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.layout.HBox;
import javafx.stage.FileChooser;
import javafx.stage.Window;

import java.io.File;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * The export flow: pick a format, pick a file, watch the progress while the report is built and written, then the
 * file opens in the platform's viewer.
 */
public final class ReportExportView {
    private final ReportExportViewModel model;
    private final HostServices hostServices;

    public ReportExportView(ReportExportViewModel model, HostServices hostServices) {
        this.model = model;
        this.hostServices = hostServices;
    }

    public void export(Window owner, String what, String fileStem, Callable<IncidentReport> source) {
        ChoiceDialog<ReportFormat> formats = new ChoiceDialog<>(ReportFormat.PDF, List.of(ReportFormat.values()));
        formats.initOwner(owner);
        formats.setTitle("Export incident report");
        formats.setHeaderText("Export the incident report of " + what);
        formats.setContentText("Format");
        formats.showAndWait().ifPresent(format -> {
            FileChooser chooser = new FileChooser();
            chooser.setTitle("Save the report");
            chooser.setInitialFileName(fileStem.replaceAll("[^A-Za-z0-9._-]", "_") + "." + format.extension());
            chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter(
                    format.name().toLowerCase(Locale.ROOT), "*." + format.extension()));
            File file = chooser.showSaveDialog(owner);
            if (file != null) {
                Alert progress = progress(owner);
                model.export(what, source, format, file.toPath(), path -> {
                    progress.close();
                    if (hostServices != null) {
                        hostServices.showDocument(path.toUri().toString());
                    }
                });
                model.runningProperty().addListener((obs, was, running) -> {
                    if (!running) {
                        progress.close();
                    }
                });
            }
        });
    }

    private Alert progress(Window owner) {
        Alert alert = new Alert(Alert.AlertType.NONE);
        alert.initOwner(owner);
        alert.setTitle("Exporting");
        Label text = new Label();
        text.textProperty().bind(model.messageProperty());
        alert.getDialogPane().setContent(new HBox(10, new ProgressIndicator(), text));
        alert.getButtonTypes().setAll(ButtonType.CANCEL);
        alert.setOnCloseRequest(event -> model.cancel());
        alert.show();
        return alert;
    }
}
