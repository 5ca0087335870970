package dev.redrive.triage.query;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DlqCountTest {
    @Test
    void anExactCount_groupsItsThousands_asTheOtherPrecisionsDo() {
        assertThat(DlqCount.exact(10_000_000).display()).isEqualTo("10,000,000");
        assertThat(DlqCount.exact(42).display()).isEqualTo("42");
        assertThat(DlqCount.atLeast(1_000).display()).isEqualTo("1,000+");
        assertThat(DlqCount.estimate(87_000).display()).startsWith("~");
    }
}
