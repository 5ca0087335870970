package dev.redrive.demo.embedded;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Where the sandbox cannot bring its own servers, it says so in one line with what to set instead. */
class EmbeddedBinariesTest {
    @Test
    void onWindows_orWithoutThisPlatformsArchive_theSandboxAsksForServersOfYourOwn() {
        assertThat(EmbeddedBinaries.unsupported("Windows 11", true)).hasValueSatisfying(why -> assertThat(why)
                .startsWith("the sandbox's own PostgreSQL and Redis run on Linux and macOS on x86-64, not on Windows 11")
                .contains("set REDRIVE_PG_URL and REDRIVE_REDIS_URI (or --pg-url and --redis-uri) to servers of your own")
                .doesNotContain("\n"));
        assertThat(EmbeddedBinaries.unsupported("Mac OS X", false)).isPresent();
        assertThat(EmbeddedBinaries.unsupported("Linux", true)).isEmpty();
    }

    @Test
    void here_theBinariesThatComeWithTheApplicationRun() {
        assertThat(EmbeddedBinaries.unsupportedHere()).isEmpty();
    }
}
