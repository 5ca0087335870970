package dev.redrive.demo.sandbox;

import dev.redrive.broker.Redis;
import dev.redrive.store.Database;
import dev.redrive.store.approval.ApprovalStore;
import dev.redrive.store.operation.RunStore;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;

/**
 * Plays the incident against a running worker: grants the refunds approval, dispatches every run's work (plus two
 * malformed dispatches), waits until the worker has settled all of it, then makes the after-the-fact changes that
 * redrive preconditions must catch — the approval is revoked and the backfill run is cancelled.
 */
final class IncidentSeeder {
    private static final Duration SETTLE_TIMEOUT = Duration.ofMinutes(5);

    private final Database database;
    private final IncidentDispatcher dispatcher;
    private final Clock clock;
    private final Consumer<String> log;

    IncidentSeeder(Database database, Redis redis, Clock clock, Consumer<String> log) {
        this.database = database;
        this.dispatcher = new IncidentDispatcher(database, redis, clock);
        this.clock = clock;
        this.log = log;
    }

    void seed(SeededIncident incident) {
        Instant now = clock.instant();
        new ApprovalStore(database.jdbc()).grant(incident.revokedApprovalId(), "demo.charge refunds.write",
                "finance-lead", now.plus(Duration.ofDays(7)), now);

        incident.runs().forEach(run -> log.accept("  " + run.runId() + " (" + run.operations().size() + " operations): "
                + run.story()));
        int dispatched = dispatcher.dispatchAll(incident.runs());
        List<String> malformed = dispatcher.dispatchMalformed(incident.cancelledRunId().replace("backfill", "legacy"));
        log.accept("dispatched " + dispatched + " operations in " + incident.runs().size() + " runs and "
                + malformed.size() + " malformed dispatches; waiting for the worker");

        List<String> runIds = incident.runs().stream().map(PlannedRun::runId).toList();
        long[] lastReported = {-1};
        new SeedSettling(database.jdbc(), clock).await(runIds, incident.operationCount(), malformed, SETTLE_TIMEOUT,
                progress -> {
                    long settled = progress.known() - progress.busy();
                    if (settled / 25 != lastReported[0] / 25 || settled == incident.operationCount()) {
                        lastReported[0] = settled;
                        log.accept("  " + settled + "/" + incident.operationCount() + " operations settled");
                    }
                });

        Instant later = clock.instant();
        new ApprovalStore(database.jdbc()).revoke(incident.revokedApprovalId(), "security-oncall",
                "refund approvals suspended pending a fraud review", later);
        new RunStore(database.jdbc()).cancel(incident.cancelledRunId(),
                "backfill superseded by the ledger migration", "ops-oncall", later);
        log.accept("revoked approval " + incident.revokedApprovalId() + ", cancelled run " + incident.cancelledRunId());
    }
}
