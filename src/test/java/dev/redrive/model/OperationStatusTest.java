package dev.redrive.model;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OperationStatusTest {
    @Test
    void aSucceededOperation_canNeverRunAgain() {
        assertThat(OperationStatus.SUCCEEDED.isTerminal()).isTrue();
        assertThatThrownBy(() -> OperationStatus.SUCCEEDED.checkTransition(OperationStatus.RUNNING))
                .isInstanceOf(IllegalStateTransitionException.class)
                .hasMessage("operation cannot go from SUCCEEDED to RUNNING");
    }

    @Test
    void aDeadLetteredOperation_leavesOnlyThroughADecision() {
        assertThat(OperationStatus.DEAD_LETTERED.allowedNext())
                .containsExactlyInAnyOrder(OperationStatus.PENDING, OperationStatus.SUCCEEDED, OperationStatus.DISCARDED,
                        OperationStatus.SUPERSEDED);
        assertThat(OperationStatus.DEAD_LETTERED.canBecome(OperationStatus.RUNNING)).isFalse();
    }

    @Test
    void allowedBefore_listsExactlyTheStatesThatMayChangeIntoTheTarget() {
        assertThat(OperationStatus.allowedBefore(OperationStatus.DISCARDED))
                .containsExactlyInAnyOrder("DEAD_LETTERED", "RETRY_SCHEDULED");
        assertThat(OperationStatus.allowedBefore(OperationStatus.RUNNING))
                .containsExactlyInAnyOrder("PENDING", "RUNNING", "RETRY_SCHEDULED");
    }

    @Test
    void aSupersededOperation_canNeverRunAgain() {
        assertThat(OperationStatus.SUPERSEDED.isTerminal()).isTrue();
        assertThat(OperationStatus.allowedBefore(OperationStatus.SUPERSEDED)).containsExactly("DEAD_LETTERED");
    }

    @Test
    void aDecidedDlqEntry_cannotBeDecidedAgain() {
        assertThatThrownBy(() -> DecisionState.RESOLVED.checkTransition(DecisionState.REDRIVEN))
                .isInstanceOf(IllegalStateTransitionException.class);
    }
}
