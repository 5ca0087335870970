package dev.redrive.console;

import dev.redrive.console.main.ConsoleSession;
import dev.redrive.console.wizard.TriageWizardBackend;
import dev.redrive.console.wizard.WizardBackend;
import dev.redrive.report.ReportService;
import dev.redrive.services.TriageServices;
import dev.redrive.triage.decision.lookup.SideEffectLookup;
import dev.redrive.triage.query.DlqQueries;
import dev.redrive.triage.redaction.Redactor;
import dev.redrive.triage.request.DecisionRequests;

/**
 * A session's triage services as the screens use them: everything shown is masked first (payloads, results, error
 * texts, evidence and reasons), and the decisions and the reports ask the tools through one set of look-ups.
 */
final class SessionTriage {
    private final TriageServices services;
    private final Redactor redactor = Redactor.defaults();
    private final SideEffectLookup tools;

    SessionTriage(ConsoleSession session) {
        services = session.services();
        tools = services.toolLookups(session.profile().lookupUris());
    }

    DlqQueries dlqQueries() {
        return services.dlqQueries(redactor);
    }

    WizardBackend wizardBackend() {
        return new TriageWizardBackend(services, tools, redactor);
    }

    ReportService reports() {
        return services.reports(redactor, tools);
    }

    DecisionRequests requests() {
        return services.requests(redactor);
    }

    TriageServices services() { return services; }
    Redactor redactor() { return redactor; }
}
