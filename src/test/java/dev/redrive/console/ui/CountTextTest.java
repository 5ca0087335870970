package dev.redrive.console.ui;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CountTextTest {
    @Test
    void oneTakesTheSingular_everyOtherCountThePlural() {
        assertThat(CountText.of(1, "entry", "entries")).isEqualTo("1 entry");
        assertThat(CountText.of(0, "entry", "entries")).isEqualTo("0 entries");
        assertThat(CountText.of(12, "group", "groups")).isEqualTo("12 groups");
    }

    @Test
    void largeCounts_groupTheirThousands() {
        assertThat(CountText.of(10_000_000, "entry", "entries")).isEqualTo("10,000,000 entries");
        assertThat(CountText.number(9_199_447)).isEqualTo("9,199,447");
        assertThat(CountText.number(999)).isEqualTo("999");
    }
}
