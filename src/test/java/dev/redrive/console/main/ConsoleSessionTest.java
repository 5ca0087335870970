package dev.redrive.console.main;

import dev.redrive.demo.tools.DemoToolServer;
import dev.redrive.config.RedriveConfig;
import dev.redrive.console.profile.ConnectionProfile;
import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;

import static org.assertj.core.api.Assertions.assertThat;

class ConsoleSessionTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @Test
    void theStatusBarsConnectionLabel_neverShowsAPasswordInTheUrl() {
        // The server may trust this connection and ignore the password; it must then be the real one.
        String secret = ns.config().pgPassword().isEmpty() ? "s3cr3t-Pw" : ns.config().pgPassword();
        String pgUrl = ns.config().pgUrl() + (ns.config().pgUrl().contains("?") ? "&" : "?") + "password=" + secret;
        RedriveConfig config = new RedriveConfig(pgUrl, ns.config().pgUser(), "", ns.config().redisUri(), ns.name());

        try (ConsoleSession session = ConsoleSession.open(ConnectionProfile.of("prod", config), config, Clock.systemUTC(),
                DemoToolServer::lookupEndpoints)) {
            assertThat(session.describe()).isEqualTo("prod · namespace " + ns.name() + " · login " + config.pgUser());
            assertThat(session.details()).as("the label's tooltip").contains("password=***")
                    .doesNotContain(secret);
        }
    }
}
