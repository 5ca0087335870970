package dev.redrive.console.detail;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.store.Database;
import dev.redrive.triage.detail.EntryDetailsLoader;
import dev.redrive.triage.detail.OperationDetailsLoader;
import dev.redrive.triage.redaction.Redactor;

/** The detail screen's model reading a test database, as the console builds it, with the default redactor. */
final class DetailModels {
    private DetailModels() {
    }

    static OperationDetailViewModel over(Database database, UiExecutor executor, TracerLinks links) {
        return new OperationDetailViewModel(new OperationDetailsLoader(database)::require,
                new EntryDetailsLoader(database)::require, executor, Redactor.defaults(), links);
    }
}
