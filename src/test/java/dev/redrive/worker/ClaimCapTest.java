package dev.redrive.worker;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.HeldTool;
import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A worker claims only what its pool can start soon: with every thread held in a call it holds leases for its threads
 * and a queue behind them, and leaves the rest of the backlog unread in the stream for whoever is free (it used to take
 * a whole batch, whose leases then ran out while it waited behind slow calls). The queue is short until calls have
 * been seen to answer fast, and a whole batch deep once they have, so that claims carry many operations. Once the
 * calls end the backlog runs, each operation called once.
 */
class ClaimCapTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final int THREADS = 4;
    private static final int QUEUED = 1;
    private static final int BACKLOG = 40;

    @Test
    void everyThreadBusy_workerHoldsItsThreadsAndAShortQueue_theBacklogStaysInTheStream() throws Exception {
        try (WorkerTestKit kit = new WorkerTestKit(ns)) {
            List<OperationId> backlog = IntStream.range(0, BACKLOG)
                    .mapToObj(i -> kit.dispatch("capped", "op" + i, "{\"amount\":1}").operationId()).toList();
            HeldTool calls = HeldTool.before(kit.charge(Duration.ofSeconds(5)));
            // A long lease: what is asserted is how much the worker claims, not how its renewals keep up.
            kit.start(kit.worker("capped", calls).concurrency(THREADS).leaseDuration(Duration.ofSeconds(30)));

            assertThat(calls.awaitEntered(THREADS, Duration.ofSeconds(30))).as("every thread in a call").isTrue();
            // The first read, with every slot free, took all the worker may claim; none frees while the calls are held.
            assertThat(kit.pendingEntries()).as("entries read").isEqualTo(THREADS + QUEUED);
            assertThat(kit.count("SELECT count(*) FROM operations WHERE status = 'RUNNING'")).as("leases held")
                    .isEqualTo(THREADS + QUEUED);
            assertThat(kit.count("SELECT count(*) FROM operations WHERE status = 'PENDING'")).as("left for later")
                    .isEqualTo(BACKLOG - THREADS - QUEUED);

            calls.release();
            for (OperationId id : backlog) {
                kit.awaitStatus(id, "SUCCEEDED", Duration.ofSeconds(30));
                assertThat(kit.callsFor(id)).as("calls of %s", id).isEqualTo(1);
            }
            assertThat(kit.count("SELECT max(fencing_token) FROM operations")).as("each claimed once").isEqualTo(1);
        }
    }

    @Test
    void callsSeenToAnswerAtOnce_workerQueuesAWholeBatchBehindItsThreads() throws Exception {
        int batch = 32;
        int fastCalls = 250;
        try (WorkerTestKit kit = new WorkerTestKit(ns)) {
            HeldTool calls = HeldTool.before(kit.charge(Duration.ofSeconds(5))).release();
            List<OperationId> warmUp = dispatchAll(kit, "warm", fastCalls);
            kit.start(kit.worker("queued", calls).concurrency(THREADS).batchSize(batch)
                    .leaseDuration(Duration.ofSeconds(30)));
            for (OperationId id : warmUp) {
                kit.awaitStatus(id, "SUCCEEDED", Duration.ofSeconds(60));
            }

            calls.holdAgain();
            List<OperationId> backlog = dispatchAll(kit, "deep", BACKLOG + batch);
            assertThat(calls.awaitEntered(THREADS, Duration.ofSeconds(30))).as("every thread in a call").isTrue();
            String running = "SELECT count(*) FROM operations WHERE run_id = 'deep' AND status = 'RUNNING'";
            await().atMost(Duration.ofSeconds(30)).until(() -> kit.count(running) == THREADS + batch);
            assertThat(kit.count("SELECT count(*) FROM operations WHERE run_id = 'deep' AND status = 'PENDING'"))
                    .as("left for later").isEqualTo(BACKLOG - THREADS);

            calls.release();
            for (OperationId id : backlog) {
                kit.awaitStatus(id, "SUCCEEDED", Duration.ofSeconds(30));
                assertThat(kit.callsFor(id)).as("calls of %s", id).isEqualTo(1);
            }
        }
    }

    private static List<OperationId> dispatchAll(WorkerTestKit kit, String run, int count) {
        List<DispatchEnvelope> dispatches = IntStream.range(0, count)
                .mapToObj(i -> kit.client().newDispatch(new OperationId(run, "op" + i, 0), "demo.charge", "1",
                        "{\"amount\":1}", "trace-" + run, null, null))
                .toList();
        kit.client().dispatchAll(dispatches);
        return dispatches.stream().map(DispatchEnvelope::operationId).toList();
    }
}
