package dev.redrive.worker.protocol;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.identity.OperationId;
import dev.redrive.model.LastCall;
import dev.redrive.model.OperationStatus;
import dev.redrive.model.RunStatus;
import dev.redrive.model.SideEffectState;
import dev.redrive.store.operation.OperationFacts;
import dev.redrive.worker.stream.Delivery;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The protocol's checks of the facts, one rule per test, without Redis or PostgreSQL. */
class EligibilityTest {
    private static final Instant NOW = Instant.parse("2026-11-30T00:00:00Z");
    private static final OperationId ID = new OperationId("run", "node", 0);
    private static final UUID COMMAND = UUID.fromString("9b0f6a57-5c4e-4a8b-9a57-0d8f3e1c2b11");

    private static DispatchEnvelope dispatch(int attempt, UUID command) {
        return new DispatchEnvelope(ID, attempt, "demo.charge", "1", ID.idempotencyKey(), "{}", null, null, "test", NOW,
                null, null, command == null ? null : command.toString(), null, null);
    }

    private static Delivery delivery(String entryId, long count) {
        return new Delivery("ns:dispatch", entryId, Map.of(), count, "me");
    }

    private static OperationFacts record(RunStatus run, OperationStatus status, int attempt, Instant leaseExpiresAt,
                                          String leaseEntry, Instant nextEligibleAt, UUID command, String commandStatus,
                                          String lastEntry) {
        return record(run, status, attempt, leaseExpiresAt, leaseEntry, nextEligibleAt, command, commandStatus, lastEntry,
                0);
    }

    private static OperationFacts record(RunStatus run, OperationStatus status, int attempt, Instant leaseExpiresAt,
                                          String leaseEntry, Instant nextEligibleAt, UUID command, String commandStatus,
                                          String lastEntry, int processingDeliveries) {
        return new OperationFacts(ID.value(), ID.runId(), run, status, attempt, "demo.charge", "1", ID.idempotencyKey(),
                "{}", null, null, null, "test", leaseExpiresAt == null ? null : "other", leaseEntry, 1, leaseExpiresAt,
                null, SideEffectState.NONE, null, nextEligibleAt, command, commandStatus, command == null ? null : attempt,
                lastEntry, NOW, processingDeliveries, null, LastCall.NONE);
    }

    private static OperationFacts plain(OperationStatus status, int attempt) {
        return record(RunStatus.RUNNING, status, attempt, null, null, null, null, null, null);
    }

    /** A waiting operation that {@code deliveries} deliveries claimed without settling it. */
    private static OperationFacts claimedWithoutSettling(int deliveries) {
        return record(RunStatus.RUNNING, OperationStatus.PENDING, 1, null, null, null, null, null, null, deliveries);
    }

    private static Verdict decide(DispatchEnvelope envelope, OperationFacts record, Delivery delivery) {
        return Eligibility.decide(envelope, record, delivery, NOW, 3);
    }

    @Test
    void otherParameters_areAConflict_butAnOlderAttemptMayCarryTheSchemaVersionFromBeforeARedrive() {
        OperationFacts atAttemptTwo = plain(OperationStatus.RETRY_SCHEDULED, 2);
        DispatchEnvelope otherPayload = new DispatchEnvelope(ID, 2, "demo.charge", "1", ID.idempotencyKey(), "{\"x\":1}",
                null, null, "test", NOW, null, null, null, null, null);
        DispatchEnvelope reordered = new DispatchEnvelope(ID, 2, "demo.charge", "1", ID.idempotencyKey(), " { } ",
                null, null, "test", NOW, null, null, null, null, null);
        DispatchEnvelope oldSchemaOldAttempt = new DispatchEnvelope(ID, 1, "demo.charge", "0", ID.idempotencyKey(), "{}",
                null, null, "test", NOW, null, null, null, null, null);
        DispatchEnvelope oldSchemaCurrentAttempt = new DispatchEnvelope(ID, 2, "demo.charge", "0", ID.idempotencyKey(),
                "{}", null, null, "test", NOW, null, null, null, null, null);

        assertThat(Eligibility.conflict(otherPayload, atAttemptTwo)).contains("was recorded with parameters");
        assertThat(Eligibility.conflict(reordered, atAttemptTwo)).isNull();
        assertThat(Eligibility.conflict(oldSchemaOldAttempt, atAttemptTwo)).isNull();
        assertThat(Eligibility.conflict(oldSchemaCurrentAttempt, atAttemptTwo))
                .contains("recorded at tool schema version 1, this dispatch carries version 0");
    }

    @Test
    void succeededOperation_isAckedWithoutAToolCall() {
        assertThat(decide(dispatch(1, null), plain(OperationStatus.SUCCEEDED, 1), delivery("1-0", 1)))
                .isInstanceOf(Verdict.AlreadySucceeded.class);
    }

    @Test
    void cancelledRun_discardsAndCancelsTheWaitingOperation() {
        Verdict verdict = decide(dispatch(1, null),
                record(RunStatus.CANCELLED, OperationStatus.PENDING, 1, null, null, null, null, null, null), delivery("1-0", 1));

        assertThat(verdict).isEqualTo(new Verdict.Discard("run run is CANCELLED", true, false, Verdict.Repair.NONE));
    }

    @Test
    void olderAttempt_isDiscarded_andARetryLostInACrashIsRepublished() {
        OperationFacts retrying = record(RunStatus.RUNNING, OperationStatus.RETRY_SCHEDULED, 2, null, null,
                NOW.plusSeconds(5), null, null, "7-0");

        assertThat(decide(dispatch(1, null), retrying, delivery("7-0", 2)))
                .isEqualTo(new Verdict.Discard("dispatch attempt 1 is older than the operation's attempt 2", false, false,
                        Verdict.Repair.REPUBLISH_RETRY));
        assertThat(((Verdict.Discard) decide(dispatch(1, null), retrying, delivery("8-0", 1))).repair())
                .isEqualTo(Verdict.Repair.NONE);
    }

    @Test
    void deadLetteredWithoutACommand_isDiscarded_andTheSameEntryReannouncesItsDlqEvent() {
        OperationFacts dead = record(RunStatus.RUNNING, OperationStatus.DEAD_LETTERED, 1, null, null, null, null, null, "3-0");

        Verdict.Discard verdict = (Verdict.Discard) decide(dispatch(1, null), dead, delivery("3-0", 2));

        assertThat(verdict.reason()).contains("no valid redrive command");
        assertThat(verdict.repair()).isEqualTo(Verdict.Repair.REPUBLISH_DEAD_LETTER);
    }

    @Test
    void redrive_runsOnlyWithTheRecordedOpenCommandForItsAttempt() {
        OperationFacts awaiting = record(RunStatus.RUNNING, OperationStatus.PENDING, 2, null, null, null, COMMAND, "ISSUED", null);

        assertThat(decide(dispatch(2, COMMAND), awaiting, delivery("1-0", 1))).isEqualTo(new Verdict.Claim(false));
        assertThat(decide(dispatch(2, null), awaiting, delivery("1-0", 1))).isInstanceOf(Verdict.Discard.class);
        assertThat(decide(dispatch(2, UUID.randomUUID()), awaiting, delivery("1-0", 1))).isInstanceOf(Verdict.Discard.class);
        assertThat(decide(dispatch(3, COMMAND), awaiting, delivery("1-0", 1))).isInstanceOf(Verdict.Discard.class);
        OperationFacts finished = record(RunStatus.RUNNING, OperationStatus.PENDING, 2, null, null, null, COMMAND, "FAILED", null);
        assertThat(((Verdict.Discard) decide(dispatch(2, COMMAND), finished, delivery("1-0", 1))).reason())
                .contains("is already FAILED");
    }

    @Test
    void liveLease_otherEntriesAreAcked_theHoldersOwnEntryStaysPending() {
        OperationFacts leased = record(RunStatus.RUNNING, OperationStatus.RUNNING, 1, NOW.plusSeconds(10), "5-0", null,
                null, null, null);

        assertThat(((Verdict.Duplicate) decide(dispatch(1, null), leased, delivery("6-0", 1))).ack()).isTrue();
        assertThat(((Verdict.Duplicate) decide(dispatch(1, null), leased, delivery("5-0", 2))).ack()).isFalse();
    }

    @Test
    void expiredLease_isTakenOver() {
        OperationFacts expired = record(RunStatus.RUNNING, OperationStatus.RUNNING, 1, NOW.minusSeconds(1), "5-0", null,
                null, null, null);

        assertThat(decide(dispatch(1, null), expired, delivery("5-0", 2))).isEqualTo(new Verdict.Claim(true));
    }

    @Test
    void retryPublishedBeforeItWasDue_goesBackToTheRetrySet() {
        OperationFacts retrying = record(RunStatus.RUNNING, OperationStatus.RETRY_SCHEDULED, 2, null, null,
                NOW.plusSeconds(5), null, null, null);

        assertThat(decide(dispatch(2, null), retrying, delivery("1-0", 1))).isEqualTo(new Verdict.NotDue(NOW.plusSeconds(5)));
    }

    @Test
    void claimedAsOftenAsTheLimitWithoutSettling_isPoison() {
        assertThat(decide(dispatch(1, null), claimedWithoutSettling(3), delivery("1-0", 4)))
                .isEqualTo(new Verdict.Poison(false));
        assertThat(decide(dispatch(1, null), claimedWithoutSettling(2), delivery("1-0", 3)))
                .isEqualTo(new Verdict.Claim(false));
    }

    @Test
    void deliveredMoreOftenThanTheLimit_butOnlySkippedWhileAnotherWorkerHeldTheLease_isNoPoison() {
        assertThat(decide(dispatch(1, null), claimedWithoutSettling(1), delivery("1-0", 40)))
                .isEqualTo(new Verdict.Claim(false));
        OperationFacts expired = record(RunStatus.RUNNING, OperationStatus.RUNNING, 1, NOW.minusSeconds(1), "1-0", null,
                null, null, null, 1);
        assertThat(decide(dispatch(1, null), expired, delivery("1-0", 40))).isEqualTo(new Verdict.Claim(true));
    }
}
