package dev.redrive.worker.client;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.TestNamespace;
import io.lettuce.core.Range;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.StreamMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link WorkerClient#dispatchAll} records a chunk while the one before is published: the stream still holds the
 * dispatches in the order given, each result names its own entry, and a publish that fails is thrown as Redis threw it.
 */
class BulkDispatchPipelineTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private final WorkerClient client = new WorkerClient(ns.database(), ns.redis(), Clock.systemUTC());

    private List<DispatchEnvelope> dispatches(String run, int count) {
        List<DispatchEnvelope> dispatches = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            dispatches.add(client.newDispatch(new OperationId(run, "n" + i, 0), "demo.charge", "1",
                    "{\"amount\":" + i + "}", null, null, null));
        }
        return dispatches;
    }

    @Test
    void dispatchesOfSeveralChunks_areInTheStreamInTheirOrder_eachResultNamingItsEntry_aConflictNotPublished() {
        int count = 3 * WorkerClient.CHUNK + 17;
        List<DispatchEnvelope> dispatches = new ArrayList<>(dispatches("ordered", count));
        // A conflict in the third chunk: recorded first with other parameters, so that line is reported, not published.
        DispatchEnvelope conflicting = dispatches.get(2 * WorkerClient.CHUNK + 5);
        client.dispatch(client.newDispatch(conflicting.operationId(), "demo.charge", "1", "{\"amount\":-1}", null, null,
                null));
        long before = ns.redis().sync().xlen(ns.redis().keys().dispatch());

        List<WorkerClient.BulkDispatched> results = client.dispatchAll(dispatches);

        assertThat(results).hasSize(count);
        assertThat(results.get(2 * WorkerClient.CHUNK + 5).conflict()).isTrue();
        assertThat(results.get(2 * WorkerClient.CHUNK + 5).entryId()).isNull();
        List<StreamMessage<String, String>> stream = ns.redis().sync().xrange(ns.redis().keys().dispatch(),
                Range.unbounded());
        List<StreamMessage<String, String>> added = stream.subList((int) before, stream.size());
        List<WorkerClient.BulkDispatched> published = results.stream().filter(result -> !result.conflict()).toList();
        assertThat(added).hasSize(count - 1);
        assertThat(added).extracting(StreamMessage::getId)
                .containsExactlyElementsOf(published.stream().map(WorkerClient.BulkDispatched::entryId).toList());
        assertThat(added).extracting(entry -> entry.getBody().get("operation_id"))
                .containsExactlyElementsOf(published.stream().map(result -> result.envelope().operationId().value())
                        .toList());
    }

    @Test
    void aPublishRedisRefuses_isThrownAsRedisThrewIt_andWhatWasRecordedWaitsAsPending() {
        String stream = ns.redis().keys().dispatch();
        String saved = "refused-" + stream;
        boolean existed = ns.redis().sync().exists(stream) > 0;
        if (existed) {
            ns.redis().sync().rename(stream, saved);
        }
        ns.redis().sync().set(stream, "not a stream");
        try {
            assertThatThrownBy(() -> client.dispatchAll(dispatches("refused", 2 * WorkerClient.CHUNK + 1)))
                    .isInstanceOf(RedisCommandExecutionException.class).hasMessageContaining("WRONGTYPE");
        } finally {
            ns.redis().sync().del(stream);
            if (existed) {
                ns.redis().sync().rename(saved, stream);
            }
        }
        // The first chunk was recorded before its publish failed; at most the next one was recorded meanwhile. Both
        // wait as PENDING for a worker's sweep, as after any failure between recording and publishing.
        long pending = ns.database().jdbc().queryLong(
                "SELECT count(*) FROM operations WHERE run_id = 'refused' AND status = 'PENDING'");
        assertThat(pending).isBetween((long) WorkerClient.CHUNK, 2L * WorkerClient.CHUNK);
    }
}
