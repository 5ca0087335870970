package dev.redrive.worker.protocol;

import dev.redrive.envelope.InvalidEnvelopeException;
import dev.redrive.store.StoreException;
import io.lettuce.core.RedisConnectionException;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Whose fault a failure on one message is, told by its type and SQLSTATE, never by its text. */
class MessageFaultTest {

    @Test
    void whatTheMessageCauses_isItsOwn_withACodeNamingIt() {
        assertOwn(new InvalidEnvelopeException(InvalidEnvelopeException.INVALID_TEXT, "trace_id holds U+0000"),
                "invalid_text");
        assertOwn(new NumberFormatException("Exponent overflow"), "unreadable_number");
        assertOwn(new ArithmeticException("Overflow"), "unreadable_number");
        assertOwn(new StackOverflowError(), "nesting_too_deep");
        assertOwn(new IllegalStateException("a bug nobody foresaw"), "undecodable_message");
        assertOwn(new NullPointerException(), "undecodable_message");
        assertOwn(store("22003"), "undecodable_message");
        assertOwn(store("23514"), "undecodable_message");
        assertOwn(store("P0001"), "undecodable_message");
        assertOwn(store("40001"), "undecodable_message");
        assertOwn(store("57014"), "undecodable_message");
    }

    @Test
    void theServersBeingAway_orRefusingTheWorker_isNoMessagesFault() {
        for (String state : new String[]{"08006", "08001", "3F000", "42P01", "42501", "53300", "57P01", "58030", "XX000"}) {
            assertThat(MessageFault.isInfrastructure(store(state))).as(state).isTrue();
            assertThat(MessageFault.isOwn(store(state))).as(state).isFalse();
        }
        assertThat(MessageFault.isOwn(new StoreException("no SQLSTATE: the pool gave no connection"))).isFalse();
        assertThat(MessageFault.isOwn(new RedisConnectionException("refused"))).isFalse();
        assertThat(MessageFault.isOwn(new IllegalStateException("wrapped", new RedisConnectionException("refused"))))
                .isFalse();
        assertThat(MessageFault.isOwn(new RuntimeException(new InterruptedException()))).isFalse();
    }

    @Test
    void errorsNoCodeShouldOutlive_areFatal_butAStackOverflowIsNot() {
        assertThat(MessageFault.isFatal(new OutOfMemoryError())).isTrue();
        assertThat(MessageFault.isFatal(new NoClassDefFoundError("x"))).isTrue();
        assertThat(MessageFault.isFatal(new StackOverflowError())).isFalse();
        assertThat(MessageFault.isOwn(new OutOfMemoryError())).isFalse();
    }

    @Test
    void rethrowUnlessOwn_throwsTheSameFailure_forTheServersOrTheJvm_andNothingForTheMessage() {
        StoreException away = store("08006");
        OutOfMemoryError fatal = new OutOfMemoryError();
        assertThatThrownBy(() -> MessageFault.rethrowUnlessOwn(away)).isSameAs(away);
        assertThatThrownBy(() -> MessageFault.rethrowUnlessOwn(fatal)).isSameAs(fatal);
        MessageFault.rethrowUnlessOwn(new NumberFormatException());
        MessageFault.rethrowUnlessOwn(new StackOverflowError());
    }

    @Test
    void aFailureNobodyForesaw_isDescribedWithItsTypeAndWhatTheWorkerWasDoing() {
        assertThat(MessageFault.describe(new IllegalStateException("boom"), "decoding it"))
                .isEqualTo("java.lang.IllegalStateException while decoding it: boom");
        assertThat(MessageFault.describe(new InvalidEnvelopeException("v is missing"), "decoding it"))
                .isEqualTo("v is missing");
    }

    private static void assertOwn(Throwable failure, String code) {
        assertThat(MessageFault.isOwn(failure)).as(failure.toString()).isTrue();
        assertThat(MessageFault.code(failure)).as(failure.toString()).isEqualTo(code);
    }

    private static StoreException store(String sqlState) {
        return StoreException.from(new SQLException("refused", sqlState));
    }
}
