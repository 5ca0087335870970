package dev.redrive.console.batch;

import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.batch.BatchDecisions;
import dev.redrive.triage.decision.batch.BatchOptions;
import dev.redrive.triage.decision.durable.BatchOutcomes;
import dev.redrive.triage.decision.durable.BatchSelection;
import dev.redrive.triage.decision.durable.DurableBatch;
import dev.redrive.triage.decision.durable.DurableBatchListener;
import dev.redrive.triage.decision.durable.DurableBatches;
import dev.redrive.triage.request.DecisionRequests;
import dev.redrive.triage.request.RequestKind;
import dev.redrive.triage.request.RequestOptions;
import dev.redrive.triage.request.Submission;

import java.util.List;
import java.util.Optional;

/** What the batches list asks of the triage core. Every call runs off the FX thread. */
public interface BatchesBackend {
    /** The newest batches first. */
    List<DurableBatch> newest(int limit);

    /** Asks whichever process runs the batch to stop before its next chunk (one that died is marked STOPPED). */
    DurableBatch stop(long id);

    /** Works the batch off in this process from where it stands, until it is done, stopped or failed. */
    DurableBatch resume(long id, DurableBatchListener listener);

    /** The batch's first {@code limit} items and what became of each, read from the facts now. */
    Optional<BatchOutcomes.Report> outcomes(long id, int limit);

    /** What starting a group's redrive came to: the batch (nobody runs it yet), or the request four-eyes made of it. */
    record GroupStart(DurableBatch batch, Submission request) {
    }

    /**
     * Records a durable batch redriving every open entry of the group; under a four-eyes policy that covers it, a
     * request listing the entries instead (as {@code redrive --group} does, up to {@value BatchDecisions#MAX_ITEMS}).
     */
    GroupStart startGroup(String fingerprint, String operator, String reason, double itemsPerSecond);

    static BatchesBackend of(DurableBatches batches, BatchDecisions decisions, DecisionRequests requests,
                             BatchOutcomes outcomes) {
        return new BatchesBackend() {
            @Override
            public GroupStart startGroup(String fingerprint, String operator, String reason, double itemsPerSecond) {
                if (requests.policy().enabled()) {
                    Optional<Submission> requested = requests.submitIfCovered(RequestKind.REDRIVE,
                            decisions.group(fingerprint).targets(), "group " + fingerprint,
                            RequestOptions.redrive(null, itemsPerSecond), operator, reason);
                    if (requested.isPresent()) {
                        return new GroupStart(null, requested.get());
                    }
                }
                return new GroupStart(batches.start(DecisionKind.REDRIVE, BatchSelection.group(fingerprint),
                        new BatchOptions(operator, reason, null, itemsPerSecond, false)), null);
            }

            @Override
            public List<DurableBatch> newest(int limit) {
                return batches.newest(limit);
            }

            @Override
            public DurableBatch stop(long id) {
                return batches.stop(id);
            }

            @Override
            public DurableBatch resume(long id, DurableBatchListener listener) {
                return batches.run(id, listener).batch();
            }

            @Override
            public Optional<BatchOutcomes.Report> outcomes(long id, int limit) {
                return outcomes.of(id, limit);
            }
        };
    }
}
