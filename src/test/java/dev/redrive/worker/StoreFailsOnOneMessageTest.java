package dev.redrive.worker;

import dev.redrive.identity.OperationId;
import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A message the operation store fails on, alone, with an error that is neither a refused value nor the database being
 * away (here a trigger raising an exception for one run, the way a constraint, a timeout or a bug would): the good
 * dispatches of its batch are recorded one by one and run, and the bad one is delivered again until the delivery
 * limit, then dead-lettered alone instead of failing its batch for good.
 */
class StoreFailsOnOneMessageTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final int DELIVERY_LIMIT = 3;

    @Test
    void aMessageTheStoreFailsOnAlone_isRetriedUpToTheDeliveryLimit_thenDeadLettered_andItsBatchRuns() {
        try (WorkerTestKit kit = new WorkerTestKit(ns)) {
            kit.jdbc().update("""
                    CREATE FUNCTION refuse_cursed_runs() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN
                        IF NEW.run_id = 'cursed' THEN
                            RAISE EXCEPTION 'operation % refused by a trigger', NEW.operation_id USING ERRCODE = 'P0001';
                        END IF;
                        RETURN NEW;
                    END $$""");
            kit.jdbc().update("CREATE TRIGGER refuse_cursed_runs BEFORE INSERT ON operations FOR EACH ROW "
                    + "EXECUTE FUNCTION refuse_cursed_runs()");
            List<OperationId> good = new ArrayList<>();
            String cursed = null;
            for (int i = 0; i < 4; i++) {
                OperationId id = new OperationId("good", "op" + i, 0);
                kit.xaddRaw(kit.foreignDispatch(id, "{\"amount\":" + i + "}"));
                good.add(id);
                if (i == 1) {
                    cursed = kit.xaddRaw(kit.foreignDispatch(new OperationId("cursed", "op", 0), "{\"amount\":1}"));
                }
            }
            String cursedEntry = cursed;

            kit.start(kit.worker("store-fails", kit.charge(Duration.ofSeconds(5))).batchSize(16)
                    .deliveryLimit(DELIVERY_LIMIT));

            for (OperationId id : good) {
                kit.awaitStatus(id, "SUCCEEDED", Duration.ofSeconds(10));
                assertThat(kit.callsFor(id)).as("tool calls of %s", id).isEqualTo(1);
            }
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() ->
                    kit.count("SELECT count(*) FROM dlq_entries WHERE entry_id = ?", cursedEntry) == 1);
            String entry = kit.jdbc().queryOne("SELECT error_class || ' ' || error_code || ' ' || delivery_count || ' '"
                    + " || error_message FROM dlq_entries WHERE entry_id = ?", row -> row.getString(1), cursedEntry)
                    .orElseThrow();
            assertThat(entry).startsWith("INVALID_INPUT delivery_limit " + DELIVERY_LIMIT + " failed "
                    + DELIVERY_LIMIT + " deliveries (limit " + DELIVERY_LIMIT + ")")
                    .contains("refused by a trigger");
            assertThat(kit.count("SELECT count(*) FROM operations WHERE run_id = 'cursed'")).isZero();
            await().atMost(Duration.ofSeconds(5)).until(() -> kit.pendingEntries() == 0);
            assertThat(ns.redis().sync().exists(ns.redis().keys().deliveries(cursedEntry)))
                    .as("the delivery history of a settled entry is dropped").isZero();
        }
    }
}
