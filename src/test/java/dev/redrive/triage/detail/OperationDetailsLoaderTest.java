package dev.redrive.triage.detail;

import dev.redrive.model.FailureClass;
import dev.redrive.model.OperationStatus;
import dev.redrive.model.RunStatus;
import dev.redrive.model.SideEffectState;
import dev.redrive.store.Jdbc;
import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.DeadLetterFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Instant;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OperationDetailsLoaderTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @Test
    void loadsTheOperationWithEveryPieceOfEvidenceAndHistory() {
        DeadLetterFixture fixture = DeadLetterFixture.withChargeTool(ns.database());
        fixture.toolSchema("demo.charge", "2");
        fixture.approval("appr-7", Instant.parse("2030-01-01T00:00:00Z"));
        DeadLetterFixture.Created created = fixture.deadLettered("run-42", "charge").attempts(3)
                .errorClass(FailureClass.UNKNOWN_SIDE_EFFECT).sideEffect(SideEffectState.POSSIBLE)
                .approvalId("appr-7").create();
        Jdbc jdbc = ns.database().jdbc();
        jdbc.update("""
                INSERT INTO reconciliations (operation_id, outcome, source, evidence, recorded_by)
                VALUES (?, 'NOT_APPLIED', 'OPERATOR', 'no charge in the PSP dashboard', 'alice')""", created.operationId());
        UUID commandId = UUID.randomUUID();
        jdbc.update("""
                INSERT INTO redrive_commands (command_id, operation_id, dlq_entry_id, operator, reason, from_attempt,
                                              to_attempt, target_schema_version, preconditions)
                VALUES (?, ?, ?, 'alice', 'PSP recovered', 3, 4, '1', '[]')""", commandId, created.operationId(), created.dlqEntryId());
        jdbc.update("INSERT INTO audit_log (actor, action, operation_id, dlq_entry_id, command_id, reason) VALUES ('alice', 'REDRIVE', ?, ?, ?, 'PSP recovered')",
                created.operationId(), created.dlqEntryId(), commandId);
        jdbc.update("INSERT INTO audit_log (actor, action, dlq_entry_id, reason) VALUES ('bob', 'NOTE', ?, 'looked at it')",
                created.dlqEntryId());

        OperationDetails details = new OperationDetailsLoader(ns.database()).require(created.operationId());

        assertThat(details.operation().status()).isEqualTo(OperationStatus.DEAD_LETTERED);
        assertThat(details.operation().idempotencyKey()).isEqualTo(created.idempotencyKey());
        assertThat(details.operation().payload().path("amount").asInt()).isEqualTo(10);
        assertThat(details.run().status()).isEqualTo(RunStatus.RUNNING);
        assertThat(details.attempts()).extracting(AttemptRecord::attempt).containsExactly(1, 2, 3);
        assertThat(details.attempts().get(2).outcome()).isEqualTo("DEAD_LETTERED");
        assertThat(details.dlqEntries()).singleElement().satisfies(entry -> {
            assertThat(entry.id()).isEqualTo(created.dlqEntryId());
            assertThat(entry.sideEffect()).isEqualTo(SideEffectState.POSSIBLE);
            assertThat(entry.attemptHistory().size()).isEqualTo(3);
            assertThat(entry.isOpen()).isTrue();
        });
        assertThat(details.openEntry()).isPresent();
        assertThat(details.reconciliations()).singleElement()
                .extracting(ReconciliationRecord::outcome).isEqualTo(ReconciliationOutcome.NOT_APPLIED);
        assertThat(details.redriveCommands()).singleElement().satisfies(command -> {
            assertThat(command.commandId()).isEqualTo(commandId);
            assertThat(command.status()).isEqualTo(RedriveCommandStatus.ISSUED);
        });
        assertThat(details.audit()).extracting(AuditEntry::action).containsExactly("REDRIVE", "NOTE");
        assertThat(details.currentToolSchemaVersion()).isEqualTo("2");
        assertThat(details.approval().approvalId()).isEqualTo("appr-7");
        assertThat(details.approval().isValidAt(Instant.parse("2029-12-31T00:00:00Z"))).isTrue();
    }

    @Test
    void unknownOperation_isNamedInTheError() {
        OperationDetailsLoader loader = new OperationDetailsLoader(ns.database());

        assertThat(loader.load("nope:nothing:0")).isEmpty();
        assertThatThrownBy(() -> loader.require("nope:nothing:0")).hasMessageContaining("nope:nothing:0");
    }
}
