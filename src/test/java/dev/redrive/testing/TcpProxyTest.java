package dev.redrive.testing;

import dev.redrive.testing.TcpProxy.Cut;
import dev.redrive.testing.TcpProxy.CutReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The proxy the commit-cut tests rely on, against the shared PostgreSQL with the real JDBC driver. */
class TcpProxyTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @Test
    void statementPreparedOnTheServer_isFoundByItsNameAlone_andNeverReachesTheServer() throws Exception {
        try (TcpProxy proxy = proxy(); Connection connection = connect(proxy)) {
            connection.createStatement().execute("CREATE TABLE " + ns.name() + ".cut_probe (n int)");
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + ns.name()
                    + ".cut_probe (n) VALUES (?) /* probe */")) {
                // From its fifth execution on a connection the driver runs a server-prepared statement by name: the
                // Bind then carries no SQL text.
                for (int n = 1; n <= 6; n++) {
                    insert.setInt(1, n);
                    insert.executeUpdate();
                }
                CompletableFuture<CutReport> cut = proxy.cutAt("/* probe */", Cut.BEFORE_STATEMENT);
                insert.setInt(1, 7);
                assertThatThrownBy(insert::executeUpdate).isInstanceOf(SQLException.class);
                CutReport report = cut.get(10, TimeUnit.SECONDS);
                assertThat(report.message()).as("found by a Bind naming the prepared statement").isEqualTo('B');
                assertThat(report.transactionStatus()).isNull();
            }
        }
        assertThat(ns.database().jdbc().queryLong("SELECT max(n) FROM cut_probe")).isEqualTo(6);
    }

    @Test
    void statementAnsweredByTheServer_commitsAlthoughTheClientHearsAnError() throws Exception {
        try (TcpProxy proxy = proxy(); Connection connection = connect(proxy)) {
            connection.createStatement().execute("CREATE TABLE " + ns.name() + ".answer_probe (n int)");
            CompletableFuture<CutReport> cut = proxy.cutAt("answer_probe (n)", Cut.AFTER_SERVER_ANSWERED);
            assertThatThrownBy(() -> connection.createStatement().executeUpdate("INSERT INTO " + ns.name()
                    + ".answer_probe (n) VALUES (1)")).isInstanceOf(SQLException.class);
            CutReport report = cut.get(10, TimeUnit.SECONDS);
            assertThat(report.commandTags()).containsExactly("INSERT 0 1");
            assertThat(report.transactionStatus()).isEqualTo('I');
        }
        assertThat(ns.database().jdbc().queryLong("SELECT count(*) FROM answer_probe")).isEqualTo(1);
    }

    private static TcpProxy proxy() {
        return TcpProxy.inFrontOf(ns.config().pgUrl());
    }

    private static Connection connect(TcpProxy proxy) throws SQLException {
        Properties login = new Properties();
        login.setProperty("user", ns.config().pgUser());
        login.setProperty("password", ns.config().pgPassword());
        return DriverManager.getConnection(proxy.jdbcUrl(), login);
    }
}
