package dev.redrive.worker;

import dev.redrive.demo.tools.EffectPolicy;
import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.identity.OperationId;
import dev.redrive.model.FailureClass;
import dev.redrive.store.operation.RunStore;
import dev.redrive.testing.BlindRecalls;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.worker.retry.RedisToolPauses;
import dev.redrive.worker.tool.HttpTool;
import dev.redrive.worker.tool.ToolCall;
import dev.redrive.worker.tool.ToolFailure;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Random interleavings of what happens to an operation in production — a worker that dies after its call or before
 * it, a tool paused for the namespace (an outage, a rate limit), workers that run a while and stop with calls still
 * running, Redis losing the dispatch (the stranded sweep), retries, an operator's redrive, a cancelled run — over the
 * real stores, with a demo tool that applies every call. Whatever the order: no call of the key is blind (every call
 * after the first follows a look-up that answered "not applied") and its effect is applied at most once.
 */
class NoBlindRecallPropertyTest {
    private static final TestNamespace ns = new TestNamespace();
    private static final Duration GHOST_LEASE = Duration.ofMillis(250);
    private static final Set<String> SETTLED = Set.of("SUCCEEDED", "DEAD_LETTERED", "CANCELLED", "DISCARDED");
    private static final AtomicInteger tries = new AtomicInteger();
    private static WorkerTestKit kit;

    /** One thing that happens to the operation. */
    enum Step {
        WORKER_DIES_AFTER_ITS_CALL, WORKER_DIES_BEFORE_ITS_CALL, TOOL_PAUSED_BY_AN_OUTAGE, TOOL_PAUSED_BY_A_RATE_LIMIT,
        WORKER_RUNS_A_WHILE, REDIS_LOSES_THE_DISPATCH, OPERATOR_REDRIVES, RUN_CANCELLED
    }

    @BeforeContainer
    static void start() throws Exception {
        ns.open(NoBlindRecallPropertyTest.class);
        kit = new WorkerTestKit(ns, EffectPolicy.EVERY_CALL);
    }

    @AfterContainer
    static void stop() {
        if (kit != null) {
            kit.close();
        }
        ns.close();
    }

    @Property(tries = 12, shrinking = ShrinkingMode.OFF)
    void whateverHappens_theToolIsNeverCalledBlind(@ForAll("faults") String fault, @ForAll("steps") List<Step> steps)
            throws Exception {
        String payload = fault.isEmpty() ? "{\"amount\":5}" : "{\"amount\":5,\"fault\":\"" + fault + "\"}";
        DispatchEnvelope dispatch = kit.dispatch("prop-" + tries.incrementAndGet(), "charge", payload);
        OperationId id = dispatch.operationId();
        HttpTool charge = kit.charge(Duration.ofMillis(800));
        for (Step step : steps) {
            apply(step, dispatch, charge);
        }
        Worker last = kit.start(kit.worker("settler-" + tries.get(), charge).sweepGrace(Duration.ofSeconds(1)));
        try {
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
                    .until(() -> SETTLED.contains(kit.status(id)));
        } finally {
            last.shutdown().join();
        }

        String why = fault + " " + steps + ": " + kit.describe(id);
        assertThat(BlindRecalls.in(kit.jdbc())).as("blind recalls, " + why).doesNotContain(id.idempotencyKey());
        assertThat(kit.effectsFor(id)).as("effects, " + why).isLessThanOrEqualTo(1);
    }

    @Provide
    Arbitrary<String> faults() {
        return Arbitraries.of("", "transient:1", "rate_limit:1:1", "dependency_down:1", "timeout_after_apply:1",
                "timeout_before_apply:1", "invalid", "lookup_down:1;timeout_after_apply:1");
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        return Arbitraries.of(Step.class).list().ofMinSize(1).ofMaxSize(5);
    }

    private static void apply(Step step, DispatchEnvelope dispatch, HttpTool charge) throws Exception {
        OperationId id = dispatch.operationId();
        switch (step) {
            case WORKER_DIES_AFTER_ITS_CALL -> ghost(dispatch, charge, true);
            case WORKER_DIES_BEFORE_ITS_CALL -> ghost(dispatch, charge, false);
            case TOOL_PAUSED_BY_AN_OUTAGE -> pause(FailureClass.DEPENDENCY_DOWN);
            case TOOL_PAUSED_BY_A_RATE_LIMIT -> pause(FailureClass.RATE_LIMITED);
            case WORKER_RUNS_A_WHILE -> {
                Worker worker = kit.start(kit.worker("while-" + tries.get(), charge)
                        .shutdownGrace(Duration.ofMillis(100)));
                Thread.sleep(400);
                worker.shutdown().join();
            }
            case REDIS_LOSES_THE_DISPATCH -> ns.redis().sync().del(ns.redis().keys().dispatch());
            case OPERATOR_REDRIVES -> {
                if ("DEAD_LETTERED".equals(kit.status(id))) {
                    // Refused while the side effect is unsettled: the property holds either way.
                    new Decisions(ns.database(), kit.client(), Clock.systemUTC())
                            .redrive(new DecisionTarget(id.value(), null, null, null), "ops", "try again");
                }
            }
            case RUN_CANCELLED -> {
                if (kit.count("SELECT count(*) FROM runs WHERE run_id = ? AND status = 'RUNNING'", id.runId()) == 1) {
                    new RunStore(kit.jdbc()).cancel(id.runId(), "stopped by the test", "ops", Instant.now());
                }
            }
        }
    }

    /** A worker that claims the operation, calls the tool or not, and dies before it commits. */
    private static void ghost(DispatchEnvelope dispatch, HttpTool charge, boolean calls) throws InterruptedException {
        if (kit.ghostClaim(dispatch, GHOST_LEASE) && calls) {
            // The ghost goes through no rule: it plays a worker that has just made the first call of its attempt.
            if (kit.count("SELECT count(*) FROM demo_tool_calls WHERE idempotency_key = ?", dispatch.idempotencyKey()) == 0) {
                try {
                    charge.execute(new ToolCall(dispatch.operationId().value(), dispatch.idempotencyKey(),
                            dispatch.attempt(), dispatch.payload(), null, null));
                } catch (ToolFailure | RuntimeException answeredOrLost) {
                    // what the dead worker would have made of the answer dies with it
                }
            }
        }
        Thread.sleep(GHOST_LEASE.toMillis() + 50);
    }

    private static void pause(FailureClass because) {
        new RedisToolPauses(ns.redis()).publish("demo.charge", Instant.now().plusMillis(700), because);
    }
}
