package dev.redrive.console.ui;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class VersionTextTest {
    @Test
    void aMissingVersion_isSaidToBeMissing_neverVnull() {
        assertThat(VersionText.of("demo.charge", null)).isEqualTo("demo.charge (no version recorded)");
        assertThat(VersionText.of(null)).isEqualTo("no version recorded");
        assertThat(VersionText.of("demo.charge", "2")).isEqualTo("demo.charge v2");
    }
}
