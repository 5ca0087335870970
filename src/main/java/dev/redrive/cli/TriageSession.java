package dev.redrive.cli;

import dev.redrive.console.profile.ConnectionProfile;
import dev.redrive.demo.tools.DemoToolServer;
import dev.redrive.services.TriageServices;
import dev.redrive.store.Database;
import dev.redrive.triage.correction.Corrections;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.decision.durable.DurableBatches;
import dev.redrive.triage.decision.lookup.SideEffectLookup;
import dev.redrive.triage.query.DlqQueries;
import dev.redrive.triage.redaction.Redactor;
import dev.redrive.triage.request.DecisionRequests;

import java.net.URI;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/**
 * What the triage commands share: the {@link TriageServices} of the namespace (the console opens the same), with the
 * command line's defaults: secrets masked by the default rules, Redis connected only by the commands that publish.
 * Closes what it opened.
 */
final class TriageSession implements AutoCloseable {
    private final TriageServices services;

    TriageSession(ConnectionOptions connection) {
        this.services = TriageServices.open(connection.config(), Clock.systemUTC(), DemoToolServer::lookupEndpoints);
    }

    TriageServices services() {
        return services;
    }

    Database database() {
        return services.database();
    }

    Clock clock() {
        return services.clock();
    }

    /** The DLQ as the commands print it: error messages masked as free text (filters see the text the login reads). */
    DlqQueries dlqQueries() {
        return services.dlqQueries(Redactor.defaults());
    }

    /** Decisions that publish redrives through the worker client; Redis is connected on first use. */
    Decisions decisions() {
        return services.decisions();
    }

    /** Durable batches over the decisions above, paced in real time. */
    DurableBatches batches() {
        return services.batches();
    }

    /** Corrections that publish through the worker client, masking secrets in their diffs by the default rules. */
    Corrections corrections() {
        return services.corrections(Redactor.defaults());
    }

    /**
     * The tools' look-ups by idempotency key: those of the demo tools serving this namespace, if any run, and those
     * REDRIVE_LOOKUP_ENDPOINTS names ({@code tool=url, ...}), which win. What verifies a redrive by the tool's own count.
     */
    SideEffectLookup sideEffectLookup() {
        Map<String, URI> endpoints = new HashMap<>();
        ConnectionProfile.parseLookupEndpoints(System.getenv("REDRIVE_LOOKUP_ENDPOINTS"))
                .forEach((tool, url) -> endpoints.put(tool, URI.create(url)));
        return services.toolLookups(endpoints);
    }

    /** Four-eyes requests whose approved decisions publish through the worker client. */
    DecisionRequests requests() {
        return services.requests(Redactor.defaults());
    }

    /** The operator's name: the given one, else the OS user. */
    /** The name a decision is recorded under: the one given, else the OS user; an empty one given is refused. */
    static String operator(String given) {
        if (given != null && given.isBlank()) {
            throw new IllegalArgumentException("--operator was given an empty name; expected who decides, or leave "
                    + "--operator out to decide as the OS user");
        }
        return given != null ? given.strip() : System.getProperty("user.name", "operator");
    }

    @Override
    public void close() {
        services.close();
    }
}
