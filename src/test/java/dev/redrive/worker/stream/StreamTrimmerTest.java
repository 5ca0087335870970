package dev.redrive.worker.stream;

import dev.redrive.broker.StreamKeys;
import dev.redrive.testing.TestNamespace;
import io.lettuce.core.Consumer;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Retention trims what was read and acked, oldest first, and never an entry still pending or not read yet. */
class StreamTrimmerTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private final RedisClusterCommands<String, String> redis = ns.redis().sync();
    private final StreamTrimmer trimmer = new StreamTrimmer(ns.redis());

    @Test
    void retentionKeepsTheNewestEntries_butNeverOnePendingOrUnread() {
        String stream = ns.redis().keys().dispatch();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            ids.add(redis.xadd(stream, Map.of("n", Integer.toString(i))));
        }
        redis.xgroupCreate(XReadArgs.StreamOffset.from(stream, "0"), StreamKeys.WORKER_GROUP, XGroupCreateArgs.Builder.mkstream());
        List<StreamMessage<String, String>> read = redis.xreadgroup(Consumer.from(StreamKeys.WORKER_GROUP, "c"),
                XReadArgs.Builder.count(800), XReadArgs.StreamOffset.lastConsumed(stream));
        assertThat(read).hasSize(800);
        List<String> acked = new ArrayList<>(ids.subList(0, 800));
        acked.remove(ids.get(600));
        acked.remove(ids.get(100));
        redis.xack(stream, StreamKeys.WORKER_GROUP, acked.toArray(String[]::new));

        trimmer.trim(stream, 50);
        assertThat(redis.xlen(stream)).as("kept from the first pending entry on").isEqualTo(900);

        redis.xack(stream, StreamKeys.WORKER_GROUP, ids.get(100));
        trimmer.trim(stream, 50);
        assertThat(redis.xlen(stream)).as("kept from the next pending entry on").isEqualTo(400);

        redis.xack(stream, StreamKeys.WORKER_GROUP, ids.get(600));
        trimmer.trim(stream, 50);
        assertThat(redis.xlen(stream)).as("the 200 entries never read stay").isEqualTo(200);
        assertThat(redis.xrange(stream, Range.create("-", "+")).get(0).getId()).isEqualTo(ids.get(800));

        redis.xreadgroup(Consumer.from(StreamKeys.WORKER_GROUP, "c"), XReadArgs.Builder.count(200),
                XReadArgs.StreamOffset.lastConsumed(stream));
        redis.xack(stream, StreamKeys.WORKER_GROUP, ids.subList(800, 1000).toArray(String[]::new));
        assertThat(trimmer.trim(stream, 50)).isEqualTo(150);
        assertThat(redis.xlen(stream)).isEqualTo(50);
        assertThat(trimmer.trim(stream, 50)).isZero();
    }

    @Test
    void aStreamWithoutAGroup_isCappedAtItsRetention() {
        String stream = ns.redis().keys().dlq();
        for (int i = 0; i < 120; i++) {
            redis.xadd(stream, Map.of("n", Integer.toString(i)));
        }
        assertThat(trimmer.trim(stream, 100)).isEqualTo(20);
        assertThat(redis.xlen(stream)).isEqualTo(100);
    }
}
