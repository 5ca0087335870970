package dev.redrive.worker;

import dev.redrive.broker.Redis;
import dev.redrive.demo.tools.EffectPolicy;
import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.BlindRecalls;
import dev.redrive.testing.RedisServerProcess;
import dev.redrive.testing.TestNamespace;
import dev.redrive.testing.WrappedTool;
import dev.redrive.worker.tool.InvalidInputFailure;
import dev.redrive.worker.tool.Tool;
import dev.redrive.worker.tool.ToolCall;
import dev.redrive.worker.tool.ToolFailure;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tool answered, and the worker failed before it recorded the answer: Redis stalled past the worker's command
 * timeout (5 s) while the dead letter read its delivery history, and was back when the crash was recorded, so the lease
 * was given back at once. The call was made all the same, so the operation is left in doubt, and the next claim looks
 * the key up before it calls again: the demo tool here applies every call, as a tool that is not idempotent would.
 */
class AnswerNotRecordedTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final Duration STALL = Duration.ofSeconds(6);

    @Test
    void aCrashAfterTheToolAnswered_leavesTheCallInDoubt_andTheNextClaimLooksUpFirst() throws Exception {
        try (RedisServerProcess server = RedisServerProcess.start();
             Redis redis = Redis.connect(ns.configWithRedis(server.uri()));
             WorkerTestKit kit = new WorkerTestKit(ns, redis, EffectPolicy.EVERY_CALL)) {
            DispatchEnvelope dispatch = kit.dispatch("answer-not-recorded", "charge", "{\"amount\":7}");
            OperationId id = dispatch.operationId();
            RedisClient admin = RedisClient.create(server.uri());
            try (StatefulRedisConnection<String, String> connection = admin.connect()) {
                Tool stallsRedisAfterApplying = stallsRedisAfterApplying(kit.charge(Duration.ofSeconds(5)), connection);
                kit.start(kit.worker("worker-stalled", stallsRedisAfterApplying).sweepGrace(Duration.ofSeconds(1)));

                kit.awaitStatus(id, "SUCCEEDED", Duration.ofSeconds(40));
            } finally {
                admin.shutdown();
            }

            assertThat(kit.callsFor(id)).as("calls of the key").isEqualTo(1);
            assertThat(kit.count("SELECT count(*) FROM demo_tool_lookups WHERE idempotency_key = ?", id.idempotencyKey()))
                    .as("look-ups of the key").isEqualTo(1);
            assertThat(BlindRecalls.in(kit.jdbc())).as("blind recalls").isEmpty();
            assertThat(kit.effectsFor(id)).isEqualTo(1);
            assertThat(kit.jdbc().queryOne("SELECT string_agg(outcome, ',' ORDER BY id) FROM attempts WHERE operation_id = ?",
                    row -> row.getString(1), id.value())).contains("SUCCEEDED");
        }
    }

    /**
     * The tool, except that its first call, once it has applied the effect, stalls every Redis client (CLIENT PAUSE)
     * and answers 400: the worker dead-letters it, and the dead letter's read of the delivery history times out.
     */
    private static Tool stallsRedisAfterApplying(Tool tool, StatefulRedisConnection<String, String> admin) {
        AtomicBoolean stalled = new AtomicBoolean();
        return new WrappedTool(tool) {
            @Override
            public String execute(ToolCall call) throws ToolFailure {
                String result = tool.execute(call);
                if (stalled.compareAndSet(false, true)) {
                    admin.sync().clientPause(STALL.toMillis());
                    throw new InvalidInputFailure("http_400", "amount refused");
                }
                return result;
            }
        };
    }
}
