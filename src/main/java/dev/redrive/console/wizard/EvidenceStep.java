package dev.redrive.console.wizard;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.triage.detail.DlqEntryRecord;
import dev.redrive.triage.detail.OperationDetails;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

import java.util.List;

/** Step 1: every item's operation, evidence and history, and what the connected role may decide. */
final class EvidenceStep {
    private final StepWork work;
    private final PayloadEditor editor;
    private final ReadOnlyBooleanWrapper evidenceLoaded = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper readOnlyReason = new ReadOnlyStringWrapper("");

    EvidenceStep(StepWork work, PayloadEditor editor) {
        this.work = work;
        this.editor = editor;
    }

    /** Loads the evidence; {@code loaded} runs once it is in, before the one item's payload goes to the editor. */
    void loadEvidence(Runnable loaded) {
        UiExecutor executor = work.executor();
        executor.submit("Reading what your database role may decide", work.backend()::access,
                access -> readOnlyReason.set(access.readOnlyReason()));
        load(false, () -> {
            evidenceLoaded.set(true);
            loaded.run();
            WizardItem first = work.first();
            if (!work.isBatch() && first.detailsProperty().get() != null) {
                editor.original(first.detailsProperty().get().operation().payload());
            }
        });
    }

    /** Reads every item again; with {@code acceptCurrentVersion} the versions they are at now become the ones seen. */
    void load(boolean acceptCurrentVersion, Runnable done) {
        WizardBackend backend = work.backend();
        UiExecutor executor = work.executor();
        work.run("Loading evidence", List.copyOf(work.items()), item -> {
            if (item.entryOnly()) {
                DlqEntryRecord entry = backend.entry(item.dlqEntryId());
                executor.onUi(() -> item.loadedAlone(entry));
            } else {
                OperationDetails details = backend.load(item.operationId());
                executor.onUi(() -> item.loaded(details));
            }
            if (acceptCurrentVersion) {
                executor.onUi(() -> {
                    DlqEntryRecord shown = item.entryProperty().get();
                    if (shown != null) {
                        item.seenVersion(shown.version());
                    }
                });
            }
        }, done);
    }

    ReadOnlyBooleanProperty evidenceLoadedProperty() { return evidenceLoaded.getReadOnlyProperty(); }
    ReadOnlyStringProperty readOnlyReasonProperty() { return readOnlyReason.getReadOnlyProperty(); }
}
