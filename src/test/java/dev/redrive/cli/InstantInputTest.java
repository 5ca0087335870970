package dev.redrive.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** --from and --to as operators type them, read in Berlin (UTC+1 in November) at a fixed now. */
class InstantInputTest {
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
    private final InstantInput input = new InstantInput(Clock.fixed(NOW, BERLIN), BERLIN);

    @ParameterizedTest(name = "{0}")
    @CsvSource(textBlock = """
            2026-11-30T10:00:00Z,     2026-11-30T10:00:00Z
            2026-11-30T10:00:00.250Z, 2026-11-30T10:00:00.250Z
            2026-11-30T10:00+01:00,   2026-11-30T09:00:00Z
            """)
    void anIsoInstant_isTakenAsItIs_withZOrAnOffset(String typed, String instant) {
        assertThat(input.parse(typed)).isEqualTo(instant);
    }

    @ParameterizedTest(name = "''{0}''")
    @CsvSource(textBlock = """
            2026-11-30 10:00,        2026-11-30T09:00:00Z
            2026-11-30 10:00:30,     2026-11-30T09:00:30Z
            2026-11-30T10:00,        2026-11-30T09:00:00Z
            ' 2026-11-30 10:00 ',    2026-11-30T09:00:00Z
            """)
    void aDateAndTimeWithoutOffset_isLocalTime_secondsOptional_spaceOrT(String typed, String instant) {
        assertThat(input.parse(typed)).isEqualTo(instant);
    }

    @Test
    void aDate_isItsFirstMomentInLocalTime() {
        assertThat(input.parse("2026-11-30")).isEqualTo("2026-11-29T23:00:00Z");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(textBlock = """
            -45s, 2026-11-30T11:59:15Z
            -30m, 2026-11-30T11:30:00Z
            -2h,  2026-11-30T10:00:00Z
            -7d,  2026-11-23T12:00:00Z
            -2H,  2026-11-30T10:00:00Z
            """)
    void aTimeBeforeNow_inSecondsMinutesHoursOrDays(String typed, String instant) {
        assertThat(input.parse(typed)).isEqualTo(instant);
    }

    @Test
    void aDayBeforeNow_isACalendarDay_soAcrossTheSwitchToSummerTimeItIs23Hours() {
        InstantInput afterTheSwitch = new InstantInput(Clock.fixed(Instant.parse("2026-03-29T12:00:00Z"), BERLIN), BERLIN);

        assertThat(afterTheSwitch.parse("-1d")).as("14:00 CEST back to 14:00 CET").isEqualTo("2026-03-28T13:00:00Z");
        assertThat(afterTheSwitch.parse("-24h")).isEqualTo("2026-03-28T12:00:00Z");
    }

    @Test
    void aTimeNoDatabaseHolds_isRefusedNamingTheRange() {
        assertThatThrownBy(() -> input.parse("-99999999d")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'-99999999d' falls in the year -271764; expected a time between 0001-01-01 and 9999-12-31");
        assertThatThrownBy(() -> input.parse("+10000-01-01T00:00:00Z")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageEndingWith("expected a time between 0001-01-01 and 9999-12-31");
        assertThat(input.parse("-700000d")).as("year 110: Berlin kept local mean time then").isEqualTo("0110-05-19T12:06:32Z");
    }

    @Test
    void anythingElse_isRefusedNamingEveryExpectedForm() {
        for (String wrong : new String[]{"yesterday", "2026-02-30", "2026-11-30 25:00", "-5w", "30m", "", "1700000000"}) {
            assertThatThrownBy(() -> input.parse(wrong)).as(wrong)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(InstantInput.EXPECTED + ", got '" + wrong + "'");
        }
        assertThat(InstantInput.EXPECTED).contains("2026-11-30T10:00:00Z", "2026-11-30 10:00", "2026-11-30", "-30m", "-2h", "-7d");
    }
}
