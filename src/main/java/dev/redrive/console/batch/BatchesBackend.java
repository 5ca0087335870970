package dev.redrive.console.batch;

import dev.redrive.triage.decision.BatchListener;
import dev.redrive.triage.decision.DurableBatch;
import dev.redrive.triage.decision.DurableBatches;

import java.util.List;

/** What the batches list asks of the triage core. Every call runs off the FX thread. */
public interface BatchesBackend {
    /** The newest batches first. */
    List<DurableBatch> newest(int limit);

    /** Asks whichever process runs the batch to stop before its next chunk (one that died is marked STOPPED). */
    DurableBatch stop(long id);

    /** Works the batch off in this process from where it stands, until it is done, stopped or failed. */
    DurableBatch resume(long id, BatchListener listener);

    static BatchesBackend of(DurableBatches batches) {
        return new BatchesBackend() {
            @Override
            public List<DurableBatch> newest(int limit) {
                return batches.newest(limit);
            }

            @Override
            public DurableBatch stop(long id) {
                return batches.stop(id);
            }

            @Override
            public DurableBatch resume(long id, BatchListener listener) {
                return batches.run(id, listener).batch();
            }
        };
    }
}
