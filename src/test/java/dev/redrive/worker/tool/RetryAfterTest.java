package dev.redrive.worker.tool;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class RetryAfterTest {
    private final Instant now = Instant.parse("2015-10-21T07:28:00Z");

    @Test
    void delaySeconds() {
        assertThat(RetryAfter.parse("120", now)).contains(Duration.ofSeconds(120));
    }

    @Test
    void httpDate_isMeasuredFromNow() {
        assertThat(RetryAfter.parse("Wed, 21 Oct 2015 07:28:30 GMT", now)).contains(Duration.ofSeconds(30));
        assertThat(RetryAfter.parse("Wed, 21 Oct 2015 07:27:00 GMT", now)).contains(Duration.ZERO);
    }

    @Test
    void absentOrUnreadable_isEmpty() {
        assertThat(RetryAfter.parse(null, now)).isEmpty();
        assertThat(RetryAfter.parse("soon", now)).isEmpty();
    }
}
