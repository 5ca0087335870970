package dev.redrive.worker;

import dev.redrive.demo.tools.EffectPolicy;
import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.identity.OperationId;
import dev.redrive.model.FailureClass;
import dev.redrive.testing.BlindRecalls;
import dev.redrive.testing.TestCorrections;
import dev.redrive.testing.TestNamespace;
import dev.redrive.testing.WrappedTool;
import dev.redrive.triage.correction.CorrectionResult;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.worker.retry.RedisToolPauses;
import dev.redrive.worker.tool.InvalidInputFailure;
import dev.redrive.worker.tool.Tool;
import dev.redrive.worker.tool.ToolCall;
import dev.redrive.worker.tool.ToolFailure;
import dev.redrive.worker.tool.TransientFailure;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every path by which an operation reaches its tool again, each on the real stores with a demo tool that applies every
 * call (it ignores the idempotency key, as a tool that is not idempotent would): after an earlier call that may have
 * acted, the tool is looked up first and called only when the look-up says "not applied".
 */
class EveryPathIntoACallTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final Duration GHOST_LEASE = Duration.ofMillis(300);

    /**
     * One path into a call: what happens to the operation before a worker gets it, and how it must end.
     * {@code calls} and {@code lookUps} count the tool's calls and look-ups of the key over the whole scenario.
     */
    enum Path {
        /** A fresh operation: called straight away, never looked up. */
        FIRST_CLAIM("SUCCEEDED", 1, 0),
        /** A worker died after its call applied the effect; its lease ran out and another worker took over. */
        TAKEOVER("SUCCEEDED", 1, 1),
        /** A worker died after claiming, before its call: the look-up says not applied, so the tool is called. */
        TAKEOVER_BEFORE_THE_CALL("SUCCEEDED", 1, 1),
        /** As TAKEOVER, while the tool is paused: the takeover is deferred to a retry, which looks up first. */
        CLAIM_AFTER_A_DEFERRAL("SUCCEEDED", 1, 1),
        /** As TAKEOVER, and Redis lost the dispatch: the stranded sweep re-publishes it. */
        STRANDED_SWEEP("SUCCEEDED", 1, 1),
        /** The tool answered a failure although it had applied the effect (a 503 after the fact); the retry looks up. */
        RETRY("SUCCEEDED", 1, 1),
        /** The call applied the effect, then two claims died before calling: the delivery limit dead-letters it. */
        DELIVERY_LIMIT("DEAD_LETTERED", 1, 0),
        /** The tool answered 400 although it applied the effect; an operator redrives it: the redrive looks up. */
        REDRIVE("SUCCEEDED", 1, 1),
        /**
         * As REDRIVE, but the operator corrects the payload: the correction is the node's next logical attempt, with a
         * key of its own, called once; the original is never called again.
         */
        CORRECTION("SUPERSEDED", 1, 0);

        final String endsAs;
        final int calls;
        final int lookUps;

        Path(String endsAs, int calls, int lookUps) {
            this.endsAs = endsAs;
            this.calls = calls;
            this.lookUps = lookUps;
        }
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void anEarlierCallThatMayHaveActed_isLookedUpBeforeTheToolIsCalledAgain(Path path) throws Exception {
        try (WorkerTestKit kit = new WorkerTestKit(ns, EffectPolicy.EVERY_CALL)) {
            DispatchEnvelope dispatch = kit.dispatch("path-" + path.name().toLowerCase().replace('_', '-'), "charge",
                    "{\"amount\":7}");
            OperationId id = dispatch.operationId();
            Tool charge = kit.charge(Duration.ofSeconds(5));
            Worker.Builder worker = kit.worker("worker-" + path.name(), charge).deliveryLimit(3);
            switch (path) {
                case FIRST_CLAIM -> kit.start(worker);
                case TAKEOVER -> {
                    ghost(kit, dispatch, charge);
                    kit.start(worker);
                }
                case TAKEOVER_BEFORE_THE_CALL -> {
                    ghost(kit, dispatch, null);
                    kit.start(worker);
                }
                case CLAIM_AFTER_A_DEFERRAL -> {
                    ghost(kit, dispatch, charge);
                    new RedisToolPauses(ns.redis()).publish("demo.charge", Instant.now().plusSeconds(2),
                            FailureClass.DEPENDENCY_DOWN);
                    kit.start(worker);
                    awaitStatus(kit, id, "RETRY_SCHEDULED");
                }
                case STRANDED_SWEEP -> {
                    ghost(kit, dispatch, charge);
                    ns.redis().sync().del(ns.redis().keys().dispatch());
                    kit.start(worker.sweepGrace(Duration.ofSeconds(1)));
                }
                case RETRY -> kit.start(kit.worker("worker-retry", answersAfterApplying(charge,
                        () -> new TransientFailure("http_503", "upstream timed out after applying"))));
                case DELIVERY_LIMIT -> {
                    ghost(kit, dispatch, charge);
                    ghost(kit, dispatch, null);
                    ghost(kit, dispatch, null);
                    kit.start(worker);
                }
                case REDRIVE -> {
                    deadLetteredByAFirstWorker(kit, charge, id);
                    assertThat(new Decisions(ns.database(), kit.client(), Clock.systemUTC())
                            .redrive(new DecisionTarget(id.value(), null, null, null), "ops", "the upstream is fixed")
                            .recorded()).isTrue();
                    kit.start(worker);
                }
                case CORRECTION -> {
                    deadLetteredByAFirstWorker(kit, charge, id);
                    CorrectionResult corrected = TestCorrections.in(ns, ns.database()).correct(
                            DecisionTarget.operation(id.value()), "{\"amount\":8}", "ops", "amount was wrong");
                    assertThat(corrected.outcome().recorded()).as(corrected.message()).isTrue();
                    kit.start(worker);
                    OperationId correction = OperationId.parse(corrected.correctionId());
                    kit.awaitStatus(correction, "SUCCEEDED", Duration.ofSeconds(20));
                    assertThat(kit.callsFor(correction)).as("calls of the correction's key").isEqualTo(1);
                }
            }
            kit.awaitStatus(id, path.endsAs, Duration.ofSeconds(20));

            assertThat(kit.callsFor(id)).as("calls of the key").isEqualTo(path.calls);
            assertThat(kit.count("SELECT count(*) FROM demo_tool_lookups WHERE idempotency_key = ?", id.idempotencyKey()))
                    .as("look-ups of the key").isEqualTo(path.lookUps);
            assertThat(BlindRecalls.in(kit.jdbc())).as("blind recalls").doesNotContain(id.idempotencyKey());
            assertThat(kit.effectsFor(id)).isEqualTo(1);
            if (path == Path.DELIVERY_LIMIT) {
                assertThat(kit.jdbc().queryOne("SELECT side_effect || '/' || last_call FROM operations WHERE operation_id = ?",
                        row -> row.getString(1), id.value())).contains("POSSIBLE/IN_DOUBT");
            }
        }
    }

    /**
     * A worker that claims the operation, calls the tool if given one, and dies before it commits: its short lease
     * runs out, and nothing of its attempt is recorded but the claim.
     */
    private static void ghost(WorkerTestKit kit, DispatchEnvelope dispatch, Tool tool) throws ToolFailure {
        assertThat(kit.ghostClaim(dispatch, GHOST_LEASE)).as("the ghost's claim").isTrue();
        if (tool != null) {
            tool.execute(new ToolCall(dispatch.operationId().value(), dispatch.idempotencyKey(), dispatch.attempt(),
                    dispatch.payload(), null, null));
        }
        sleep(GHOST_LEASE.plusMillis(100));
    }

    /** The tool, except that its first call answers {@code failure} after the effect was applied. */
    private static Tool answersAfterApplying(Tool tool, Supplier<ToolFailure> failure) {
        return new WrappedTool(tool) {
            private boolean answered;

            @Override
            public synchronized String execute(ToolCall call) throws ToolFailure {
                String result = tool.execute(call);
                if (!answered) {
                    answered = true;
                    throw failure.get();
                }
                return result;
            }
        };
    }

    /** A first worker applies the charge but answers 400, so the operation is dead-lettered; then it stops. */
    private static void deadLetteredByAFirstWorker(WorkerTestKit kit, Tool charge, OperationId id) {
        Worker first = kit.start(kit.worker("worker-first", answersAfterApplying(charge,
                () -> new InvalidInputFailure("http_400", "amount refused"))));
        awaitStatus(kit, id, "DEAD_LETTERED");
        first.shutdown().join();
    }

    private static void awaitStatus(WorkerTestKit kit, OperationId id, String status) {
        kit.awaitStatus(id, status, Duration.ofSeconds(10));
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
