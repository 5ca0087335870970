package dev.redrive.console.wizard;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.triage.correction.CorrectionResult;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.decision.batch.BatchListener;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.request.RequestOptions;
import javafx.beans.value.ObservableStringValue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Takes the decision chosen in step 4 on every item that can get it, as the CLI does: a request for a second operator
 * where the four-eyes policy covers it, else item by item or in the triage core's chunks; step 5 counts the results.
 */
final class DecisionIssuer {
    /** How often the result counters are brought up to date while a batch runs. */
    private static final long COUNT_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private final StepWork work;
    private final DecisionStep decision;
    private final ResultStep result;
    private final PayloadEditor editor;
    private final ObservableStringValue operator;

    DecisionIssuer(StepWork work, DecisionStep decision, ResultStep result, PayloadEditor editor,
                   ObservableStringValue operator) {
        this.work = work;
        this.decision = decision;
        this.result = result;
        this.editor = editor;
        this.operator = operator;
    }

    /** Takes the chosen decision on every item that can get it; the others are left as they are and say why. */
    void issue() {
        DecisionKind kind = decision.chosen();
        String why = decision.reasonProperty().get().strip();
        String who = operator.get().strip();
        List<WizardItem> eligible = decision.eligible(kind);
        work.items().stream().filter(item -> !item.allows(kind))
                .forEach(item -> item.outcome(ItemResult.skipped(kind, item.whyNot(kind))));
        long pause = kind == DecisionKind.REDRIVE && eligible.size() > 1 ? 1_000L / decision.pace() : 0;
        decision.markIssued();
        result.deciding(pause > 0);
        String payload = editor.textProperty().get();
        List<DecisionTarget> targets = eligible.stream().map(WizardItem::target).toList();
        UiExecutor executor = work.executor();
        // As the CLI does: a decision the policy covers becomes one request for a second operator, taken by nobody now.
        executor.submit("Reading the four-eyes policy", () -> work.backend().requestIfCovered(kind, targets,
                requestOptions(kind, eligible, payload, pause), who, why), submission -> {
            if (submission.isPresent()) {
                eligible.forEach(item -> item.outcome(ItemResult.requested(kind, submission.get())));
                result.decided(eligible);
            } else {
                take(kind, eligible, who, why, payload);
            }
        }, failure -> {
            eligible.forEach(item -> item.outcome(ItemResult.error(failure.message())));
            result.decided(eligible);
            executor.report(failure);
        });
    }

    /** What a request keeps of how the decision is to be taken: the schema version chosen, the pace, the payload. */
    private RequestOptions requestOptions(DecisionKind kind, List<WizardItem> eligible, String payload, long pause) {
        Set<String> versions = eligible.stream().map(item -> item.target().chosenSchemaVersion())
                .filter(Objects::nonNull).collect(Collectors.toSet());
        String version = versions.size() == 1 ? versions.iterator().next() : null;
        return switch (kind) {
            case REDRIVE -> RequestOptions.redrive(version, pause > 0 ? decision.redrivesPerSecondProperty().get() : 0);
            case CORRECT -> RequestOptions.correction(payload, version);
            case RESOLVE, DISCARD -> RequestOptions.NONE;
        };
    }

    /** One item, or items some of which are entries alone, one at a time; many items of operations in chunks. */
    private void take(DecisionKind kind, List<WizardItem> eligible, String who, String why, String payload) {
        if (kind != DecisionKind.CORRECT && eligible.size() > 1
                && eligible.stream().noneMatch(item -> item.target().entryOnly())) {
            takeInChunks(kind, eligible, who, why);
            return;
        }
        WizardBackend backend = work.backend();
        UiExecutor executor = work.executor();
        work.run(kind == DecisionKind.REDRIVE ? "Issuing redrives" : kind == DecisionKind.CORRECT
                ? "Recording the correction" : "Recording decisions", eligible, item -> {
            if (kind == DecisionKind.CORRECT) {
                CorrectionResult corrected = backend.correct(item.target(), payload, who, why);
                executor.onUi(() -> item.corrected(corrected));
                return;
            }
            DecisionResult decided = switch (kind) {
                case REDRIVE -> backend.redrive(item.target(), who, why);
                case RESOLVE -> backend.resolve(item.target(), null, who, why);
                case DISCARD -> backend.discard(item.target(), who, why);
                case CORRECT -> throw new IllegalStateException("a correction is recorded above");
            };
            executor.onUi(() -> item.decided(decided));
        }, () -> result.decided(eligible), () -> result.decided(eligible));
    }

    /**
     * A decision on many items goes through the triage core's batch path, as the CLI's does: a chunk of items checked,
     * recorded and audited per transaction, published together, paced, and stopped between chunks; each item's result
     * comes back as it is decided, with the pace and the time left.
     */
    private void takeInChunks(DecisionKind kind, List<WizardItem> eligible, String who, String why) {
        String what = kind == DecisionKind.REDRIVE ? "Issuing redrives" : "Recording decisions";
        List<DecisionTarget> targets = eligible.stream().map(WizardItem::target).toList();
        double rate = kind == DecisionKind.REDRIVE ? decision.pace() : 0;
        int total = eligible.size();
        work.begin(what);
        BatchListener progress = new ChunkProgress(what, eligible);
        // The items no decision can reach are counted at once, the decided ones as they come.
        result.countResults();
        work.executor().submit(what, () -> work.backend().decideBatch(kind, targets, rate, who, why, progress), report -> {
            work.ended(what, report.items().size(), total);
            result.decided(eligible);
        }, failure -> {
            work.failed(failure);
            result.decided(eligible);
            work.executor().report(failure);
        });
    }

    /** Puts each item's result in its row as the batch decides it, and moves the progress line with the pace. */
    private final class ChunkProgress implements BatchListener {
        private final String what;
        private final int total;
        private final Map<Long, WizardItem> byEntry = new HashMap<>();
        private final long started = System.nanoTime();
        /** When the counters were last brought up to date; read and written on the FX thread only. */
        private long countedAt = System.nanoTime();

        ChunkProgress(String what, List<WizardItem> eligible) {
            this.what = what;
            this.total = eligible.size();
            eligible.forEach(item -> byEntry.put(item.dlqEntryId(), item));
        }

        @Override
        public void itemDone(int done, int all, DecisionResult decided) {
            String pace = BatchPace.line(done, total, System.nanoTime() - started);
            work.executor().onUi(() -> {
                WizardItem item = byEntry.get(decided.dlqEntryId());
                if (item != null) {
                    item.decided(decided);
                }
                work.advanced(what, done, total, pace);
                // Counting reads every item: a few times a second is enough for the eye, and keeps a batch of
                // thousands from counting them all once per item.
                if (done == total || System.nanoTime() - countedAt > COUNT_EVERY_NANOS) {
                    countedAt = System.nanoTime();
                    result.countResults();
                }
            });
        }

        @Override
        public boolean stopRequested() {
            return work.stopRequested();
        }
    }
}
