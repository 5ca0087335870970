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
}
