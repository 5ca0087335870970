package dev.redrive.demo.sandbox;

import dev.redrive.broker.Redis;
import dev.redrive.store.Database;
import dev.redrive.store.Jdbc;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.decision.DispatchPublisher;
import dev.redrive.triage.decision.batch.Sleeper;
import dev.redrive.triage.decision.lookup.HttpSideEffectLookup;
import dev.redrive.triage.decision.verify.RedriveVerification;
import dev.redrive.triage.decision.verify.RedriveVerifier;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.redaction.Redactor;
import dev.redrive.triage.request.DecisionRequests;
import dev.redrive.triage.request.FourEyesPolicy;
import dev.redrive.triage.request.PolicyStore;
import dev.redrive.triage.request.RequestKind;
import dev.redrive.triage.request.RequestOptions;
import dev.redrive.triage.request.Submission;
import dev.redrive.worker.client.WorkerClient;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The first hour of triage, so the sandbox opens with history in its audit log: an operator discards a rejected
 * charge, another reconciles a lost answer with the processor and resolves it as succeeded, a third redrives a charge
 * whose throttling has lifted — and the worker runs it once. Then four-eyes is switched on for the payout tool alone,
 * and a fourth operator asks to discard the payout that never got through: the request waits for a second operator.
 */
final class IncidentHistory {
    private static final Duration REDRIVE_TIMEOUT = Duration.ofSeconds(30);
    /** Long enough for a sandbox the console resumes over a few days to still show its request waiting. */
    static final Duration REQUEST_EXPIRY = Duration.ofDays(7);

    private static final String OPEN_ENTRY_WITH_FAULT = """
            SELECT operation_id FROM dlq_entries
             WHERE run_id = ? AND decision_state = 'OPEN' AND payload->>'fault' = ?
             ORDER BY id LIMIT 1
            """;

    private final Jdbc jdbc;
    private final Decisions decisions;
    private final RedriveVerifier verifier;
    private final HttpSideEffectLookup lookup;
    private final PolicyStore policies;
    private final DecisionRequests requests;
    private final Clock clock;
    private final Consumer<String> log;

    IncidentHistory(Database database, Redis redis, Map<String, URI> lookupEndpoints, Clock clock, Consumer<String> log) {
        this.jdbc = database.jdbc();
        WorkerClient client = new WorkerClient(database, redis, clock);
        this.decisions = new Decisions(database, client, clock);
        this.policies = new PolicyStore(database);
        this.requests = new DecisionRequests(database, DispatchPublisher.of(() -> client), Redactor.defaults(), clock,
                Sleeper.SYSTEM);
        this.lookup = new HttpSideEffectLookup(lookupEndpoints, Duration.ofSeconds(5));
        this.verifier = new RedriveVerifier(database, lookup);
        this.clock = clock;
        this.log = log;
    }

    void play(SeededIncident incident) {
        String billingRunId = incident.billingRunId();
        openEntry(billingRunId, "invalid").ifPresent(operation -> report(decisions.discard(
                DecisionTarget.operation(operation), "alice",
                "negative amount came from a credit note; refunded by hand in the back office")));

        openEntry(billingRunId, "timeout_after_apply;lookup_down:1").ifPresent(operation -> {
            decisions.reconcileWithTool(operation, lookup, "bob");
            report(decisions.resolve(DecisionTarget.operation(operation), null, "bob",
                    "the processor's ledger shows the charge: resolved with its result instead of charging again"));
        });

        openEntry(billingRunId, "rate_limit:" + IncidentScenario.EXHAUSTS_RETRIES + ":1").ifPresent(operation -> {
            DecisionResult redrive = decisions.redrive(DecisionTarget.operation(operation), "carol",
                    "processor throttling lifted; one redrive to finish the charge");
            report(redrive);
            if (redrive.commandId() != null) {
                awaitRedrive(redrive.commandId());
            }
        });

        askForAPayoutDiscard(incident.payoutsRunId());
    }

    /**
     * Four-eyes for the payout tool only, whose one dead letter is the lost payout: the discard asked for below waits,
     * and every other decision in the sandbox is still taken at once.
     */
    private void askForAPayoutDiscard(String payoutsRunId) {
        String tool = IncidentScenario.FOUR_EYES_TOOL.toolName();
        FourEyesPolicy policy = policies.write(FourEyesPolicy.of(true, null, false, List.of(tool), REQUEST_EXPIRY),
                "alice", clock.instant());
        log.accept("  alice " + policy.describe());
        openEntry(payoutsRunId, IncidentScenario.LOST_PAYOUT_FAULT).ifPresent(operation -> {
            Optional<Submission> asked = requests.submitIfCovered(RequestKind.DISCARD,
                    List.of(DecisionTarget.operation(operation)), null, RequestOptions.NONE, "dave",
                    "the payout provider never answered for this payout; finance paid the merchant by bank transfer "
                            + "(FIN-2291)");
            if (asked.isEmpty() || !asked.get().recorded()) {
                throw new SandboxException("the payout discard was not recorded as a request: "
                        + asked.map(Submission::message).orElse("four-eyes did not cover it"));
            }
            log.accept("  dave discard " + operation + ": " + asked.get().message());
        });
    }

    private Optional<String> openEntry(String runId, String fault) {
        return jdbc.queryOne(OPEN_ENTRY_WITH_FAULT, row -> row.getString(1), runId, fault);
    }

    private void report(DecisionResult result) {
        log.accept("  " + result.operator() + " " + result.kind().name().toLowerCase(java.util.Locale.ROOT) + " "
                + result.operationId() + ": " + result.outcome() + " — " + result.message());
    }

    private void awaitRedrive(UUID commandId) {
        Instant deadline = clock.instant().plus(REDRIVE_TIMEOUT);
        while (clock.instant().isBefore(deadline)) {
            Optional<RedriveVerification> verification = verifier.verify(commandId);
            if (verification.isPresent() && verification.get().verdict() != RedriveVerification.Verdict.WAITING) {
                log.accept("  redrive " + commandId + ": " + verification.get().explanation());
                return;
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SandboxException("interrupted while waiting for redrive " + commandId);
            }
        }
        throw new SandboxException("redrive " + commandId + " did not finish within " + REDRIVE_TIMEOUT.toSeconds() + " s");
    }
}
