package dev.redrive.worker.protocol;

import dev.redrive.broker.StreamKeys;
import dev.redrive.identity.OperationId;
import dev.redrive.model.OperationStatus;
import dev.redrive.store.operation.OperationRegistry;
import dev.redrive.store.operation.OperationStore;
import dev.redrive.testing.TestNamespace;
import dev.redrive.worker.client.WorkerClient;
import dev.redrive.worker.retry.RetryQueue;
import dev.redrive.worker.stream.DispatchStream;
import io.lettuce.core.Consumer;
import io.lettuce.core.XAddArgs;
import io.lettuce.core.XReadArgs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An operation waiting longer than the grace period is stranded only if the stream holds nothing older still to do:
 * while a backlog is unread, its dispatch may simply be queued, and publishing a copy would only lengthen the queue.
 */
class SweepBacklogTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @Test
    void aPendingOperationBehindAnUnreadBacklog_isNotPublishedAgain_untilTheBacklogIsRead() {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        WorkerClient client = new WorkerClient(ns.database(), ns.redis(), Clock.systemUTC());
        OperationId id = new OperationId("backlog", "op", 0);
        new OperationRegistry(ns.database().jdbc()).record(client.newDispatch(id, "demo.charge", "1", "{}", null, null, null),
                OperationStatus.PENDING);
        ns.database().jdbc().update("UPDATE operations SET updated_at = ? WHERE operation_id = ?",
                now.minus(Duration.ofHours(1)), id.value());
        String stream = ns.redis().keys().dispatch();
        String old = ns.redis().sync().xadd(stream, new XAddArgs().id(now.minus(Duration.ofHours(2)).toEpochMilli() + "-0"),
                Map.of("note", "a dispatch queued two hours ago"));
        DispatchStream dispatchStream = new DispatchStream(ns.redis(), "w");
        dispatchStream.ensureGroup();
        StrandedSweep sweep = new StrandedSweep(new OperationStore(ns.database().jdbc()), new RetryQueue(ns.redis()), client,
                Duration.ofMinutes(1));
        try {
            assertThat(dispatchStream.oldestUndone()).contains(now.minus(Duration.ofHours(2)));
            assertThat(sweep.sweep(now, dispatchStream.oldestUndone())).as("queued behind the backlog").isZero();

            ns.redis().sync().xreadgroup(Consumer.from(StreamKeys.WORKER_GROUP, "w"), XReadArgs.Builder.count(10),
                    XReadArgs.StreamOffset.lastConsumed(stream));
            assertThat(dispatchStream.oldestUndone()).as("read, not acked").contains(now.minus(Duration.ofHours(2)));
            assertThat(sweep.sweep(now, dispatchStream.oldestUndone())).isZero();

            ns.redis().sync().xack(stream, StreamKeys.WORKER_GROUP, old);
            assertThat(dispatchStream.oldestUndone()).isEmpty();
            assertThat(sweep.sweep(now, dispatchStream.oldestUndone())).as("now it is stranded").isEqualTo(1);
        } finally {
            dispatchStream.close();
        }
    }
}
