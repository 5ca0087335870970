package dev.redrive.embedding;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.redrive.identity.OperationId;
import dev.redrive.store.Database;
import dev.redrive.testing.AnswersAtOnce;
import dev.redrive.testing.TestNamespace;
import dev.redrive.worker.Worker;
import dev.redrive.worker.WorkerState;
import dev.redrive.worker.client.WorkerClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A host service hands the worker its own pool and Lettuce client: the namespace migrates and runs through them, the
 * host's connections come back with the host's search path and auto-commit, and after the worker stops the pool and
 * the client still serve the host, since the worker closes only what it opened.
 */
class HostPoolAndClientTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final int OPERATIONS = 50;

    @Test
    void aWorkerOnTheHostsPoolAndClient_runsOperations_andLeavesBothAsTheHostHadThem() throws Exception {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(ns.config().pgUrl());
        config.setUsername(ns.config().pgUser());
        config.setPassword(ns.config().pgPassword());
        config.setMaximumPoolSize(4);
        // A host that commits explicitly: the worker's single statements must still commit.
        config.setAutoCommit(false);
        RedisClient hostClient = RedisClient.create(ns.config().redisUri());
        try (HikariDataSource hostPool = new HikariDataSource(config)) {
            String hostSearchPath = searchPath(hostPool);
            ns.database().dropSchema();
            Database.using(hostPool, ns.name()).migrate();

            Worker worker = Worker.builder(hostPool, hostClient, ns.name()).tool(new AnswersAtOnce("host.echo"))
                    .concurrency(4).build().start();
            WorkerClient client = new WorkerClient(ns.database(), ns.redis(), Clock.systemUTC());
            for (int i = 0; i < OPERATIONS; i++) {
                client.dispatch(client.newDispatch(new OperationId("host-run", "node-" + i, 0), "host.echo", "1",
                        "{\"n\":" + i + "}", null, null, null));
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> ns.database().jdbc().queryLong(
                    "SELECT count(*) FROM operations WHERE status = 'SUCCEEDED'") == OPERATIONS);
            worker.shutdown().get(30, TimeUnit.SECONDS);

            assertThat(worker.state()).isEqualTo(WorkerState.STOPPED);
            assertThat(hostPool.isClosed()).isFalse();
            assertThat(searchPath(hostPool)).as("every pooled connection, back with the host").isEqualTo(hostSearchPath);
            try (Connection connection = hostPool.getConnection()) {
                assertThat(connection.getAutoCommit()).isFalse();
            }
            try (StatefulRedisConnection<String, String> connection = hostClient.connect()) {
                assertThat(connection.sync().ping()).isEqualTo("PONG");
            }
        } finally {
            hostClient.shutdown();
        }
    }

    /** The search path of each of the pool's connections, taken all at once so that every one is looked at. */
    private static String searchPath(HikariDataSource pool) throws Exception {
        Connection[] connections = new Connection[pool.getMaximumPoolSize()];
        String seen = null;
        try {
            for (int i = 0; i < connections.length; i++) {
                connections[i] = pool.getConnection();
                try (Statement statement = connections[i].createStatement();
                     ResultSet row = statement.executeQuery("SHOW search_path")) {
                    row.next();
                    assertThat(seen == null || seen.equals(row.getString(1))).as("connection " + i).isTrue();
                    seen = row.getString(1);
                }
                connections[i].rollback();
            }
        } finally {
            for (Connection connection : connections) {
                if (connection != null) {
                    connection.close();
                }
            }
        }
        return seen;
    }
}
