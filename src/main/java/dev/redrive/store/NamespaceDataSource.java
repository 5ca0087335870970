package dev.redrive.store;

import javax.sql.DataSource;
import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.logging.Logger;

/**
 * A host application's pool, lent to Redrive: every connection borrowed gets the namespace's schema as its search
 * path (Redrive's statements name tables without a schema) and auto-commit on (Redrive commits its single statements
 * that way), and gets both back as they were when Redrive returns it, so the host's own statements on the same pooled
 * connection later see nothing of Redrive's. It costs one statement at each end of a borrow.
 */
final class NamespaceDataSource implements DataSource {
    private final DataSource host;
    private final String namespace;

    NamespaceDataSource(DataSource host, String namespace) {
        this.host = host;
        this.namespace = namespace;
    }

    @Override
    public Connection getConnection() throws SQLException {
        return scoped(host.getConnection());
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return scoped(host.getConnection(username, password));
    }

    private Connection scoped(Connection connection) throws SQLException {
        try {
            boolean autoCommit = connection.getAutoCommit();
            if (!autoCommit) {
                // A host pool without auto-commit may hand out a connection in an open transaction: end it first,
                // as the host's pool would when the connection was returned.
                connection.rollback();
                connection.setAutoCommit(true);
            }
            String searchPath;
            try (Statement statement = connection.createStatement();
                 ResultSet row = statement.executeQuery("SELECT current_setting('search_path'), "
                         + "set_config('search_path', '\"" + namespace + "\"', false)")) {
                row.next();
                searchPath = row.getString(1);
            }
            return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                    new Class<?>[]{Connection.class}, new Restoring(connection, searchPath, autoCommit));
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /** Puts the host's search path and auto-commit back when Redrive closes (returns) the connection. */
    private record Restoring(Connection connection, String searchPath, boolean autoCommit) implements InvocationHandler {
        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            if (method.getName().equals("close") && method.getParameterCount() == 0) {
                restoreAndClose();
                return null;
            }
            try {
                return method.invoke(connection, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }

        private void restoreAndClose() throws SQLException {
            try {
                if (!connection.isClosed()) {
                    if (!connection.getAutoCommit()) {
                        connection.rollback();
                        connection.setAutoCommit(true);
                    }
                    try (Statement statement = connection.createStatement()) {
                        statement.execute("SELECT set_config('search_path', " + literal(searchPath) + ", false)");
                    }
                    connection.setAutoCommit(autoCommit);
                }
            } finally {
                connection.close();
            }
        }

        private static String literal(String text) {
            return "'" + text.replace("'", "''") + "'";
        }
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return host.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        host.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        host.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return host.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return host.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        return type.isInstance(this) ? type.cast(this) : host.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
        return type.isInstance(this) || host.isWrapperFor(type);
    }
}
