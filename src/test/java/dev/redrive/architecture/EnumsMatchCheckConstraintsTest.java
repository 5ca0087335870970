package dev.redrive.architecture;

import dev.redrive.model.DecisionState;
import dev.redrive.model.FailureClass;
import dev.redrive.model.LastCall;
import dev.redrive.model.OperationStatus;
import dev.redrive.model.RunStatus;
import dev.redrive.model.SideEffectState;
import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.store.reconciliation.ReconciliationSource;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.durable.BatchState;
import dev.redrive.triage.detail.RedriveCommandStatus;
import dev.redrive.triage.request.RequestKind;
import dev.redrive.triage.request.RequestState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each state the Java code knows is a value the table's CHECK constraint accepts, and the other way round: a value
 * added on one side only would fail at the first write of it (or be a state the code cannot read back).
 */
class EnumsMatchCheckConstraintsTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final Pattern QUOTED = Pattern.compile("'([^']*)'");

    /** The decisions a durable batch takes: every {@link DecisionKind} but a correction, one operation at a time. */
    private enum BatchableKind {
        REDRIVE, RESOLVE, DISCARD
    }

    @Test
    void theBatchableKinds_areTheDecisionKindsButACorrection() {
        assertThat(Arrays.stream(DecisionKind.values()).map(Enum::name).filter(name -> !name.equals("CORRECT")))
                .containsExactly(Arrays.stream(BatchableKind.values()).map(Enum::name).toArray(String[]::new));
    }

    static Stream<Arguments> columns() {
        return Stream.of(
                Arguments.of("operations", "status", OperationStatus.class),
                Arguments.of("operations", "side_effect", SideEffectState.class),
                Arguments.of("operations", "last_call", LastCall.class),
                Arguments.of("attempts", "error_class", FailureClass.class),
                Arguments.of("attempts", "side_effect", SideEffectState.class),
                Arguments.of("dlq_entries", "error_class", FailureClass.class),
                Arguments.of("dlq_entries", "side_effect", SideEffectState.class),
                Arguments.of("dlq_entries", "decision_state", DecisionState.class),
                Arguments.of("runs", "status", RunStatus.class),
                Arguments.of("reconciliations", "outcome", ReconciliationOutcome.class),
                Arguments.of("reconciliations", "source", ReconciliationSource.class),
                Arguments.of("redrive_commands", "status", RedriveCommandStatus.class),
                Arguments.of("redrive_batches", "state", BatchState.class),
                Arguments.of("redrive_batches", "kind", BatchableKind.class),
                Arguments.of("decision_requests", "state", RequestState.class),
                Arguments.of("decision_requests", "kind", RequestKind.class));
    }

    @ParameterizedTest(name = "{0}.{1} = {2}")
    @MethodSource("columns")
    void theEnumAndTheCheckConstraintListTheSameValues(String table, String column, Class<? extends Enum<?>> type) {
        List<String> definitions = ns.database().jdbc().query("""
                SELECT pg_get_constraintdef(c.oid) FROM pg_constraint c
                 WHERE c.contype = 'c' AND c.conrelid = (quote_ident(?) || '.' || quote_ident(?))::regclass
                   AND pg_get_constraintdef(c.oid) LIKE '%(' || ? || ' = ANY%'""", row -> row.getString(1),
                ns.name(), table, column);
        assertThat(definitions).as("the CHECK constraint of %s.%s", table, column).hasSize(1);
        Set<String> allowed = new TreeSet<>();
        Matcher quoted = QUOTED.matcher(definitions.get(0));
        while (quoted.find()) {
            allowed.add(quoted.group(1));
        }

        assertThat(allowed).isEqualTo(Arrays.stream(type.getEnumConstants()).map(Enum::name)
                .collect(Collectors.toCollection(TreeSet::new)));
    }
}
