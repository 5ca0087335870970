package dev.redrive.model;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The one duration grammar: what the tools file, the policies and the times before now all read. */
class TypedDurationTest {
    @Test
    void everyForm_readsAsTheDurationItNames_inAnyCase() {
        assertThat(TypedDuration.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(TypedDuration.parse("90s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(TypedDuration.parse(" 30M ")).isEqualTo(Duration.ofMinutes(30));
        assertThat(TypedDuration.parse("24h")).isEqualTo(Duration.ofHours(24));
        assertThat(TypedDuration.parse("7D")).isEqualTo(Duration.ofDays(7));
        assertThat(TypedDuration.parse("PT10S")).isEqualTo(Duration.ofSeconds(10));
        assertThat(TypedDuration.parse("p7d")).isEqualTo(Duration.ofDays(7));
        assertThat(TypedDuration.parse("PT0.5S")).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void whatItWrites_readsBackAsItWas() {
        for (Duration duration : new Duration[] {Duration.ofSeconds(90), Duration.ofMinutes(30), Duration.ofHours(12),
                Duration.ofDays(90), Duration.ofMillis(1500)}) {
            assertThat(TypedDuration.parse(TypedDuration.iso(duration))).isEqualTo(duration);
            if (duration.getNano() == 0) {
                assertThat(TypedDuration.parse(TypedDuration.text(duration))).isEqualTo(duration);
            }
        }
        assertThat(TypedDuration.text(Duration.ofMinutes(90))).isEqualTo("90m");
        assertThat(TypedDuration.iso(Duration.ofDays(2))).isEqualTo("P2D");
    }

    @Test
    void theCompactForm_keepsItsUnit_forCalendarArithmetic() {
        assertThat(TypedDuration.compact("7d")).contains(new TypedDuration.Compact(7, ChronoUnit.DAYS));
        assertThat(TypedDuration.compact("250MS")).contains(new TypedDuration.Compact(250, ChronoUnit.MILLIS));
        assertThat(TypedDuration.compact("P7D")).isEmpty();
        assertThat(TypedDuration.compact("1w")).isEmpty();
    }

    @Test
    void anythingElse_namesTheFormsExpected() {
        for (String text : new String[] {"soon", "", "10 s", "1w", "-5m", "1234567890s"}) {
            assertThatThrownBy(() -> TypedDuration.parse(text)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("expected a duration like 500ms, 10s, 30m, 24h, 7d or ISO-8601 (PT10S, P7D), got '"
                            + text + "'");
        }
    }
}
