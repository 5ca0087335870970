package dev.redrive.store;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A small helper over plain JDBC: every value is bound, never glued into SQL; a transaction is a lambda that
 * commits when it returns and rolls back when it throws. Calls made inside {@link #inTransaction} reuse that
 * transaction's connection.
 */
public final class Jdbc {
    private final DataSource dataSource;
    private final ThreadLocal<Connection> current = new ThreadLocal<>();

    public Jdbc(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @FunctionalInterface
    public interface RowMapper<T> {
        T map(ResultSet row) throws SQLException;
    }

    @FunctionalInterface
    public interface TransactionBody<T> {
        T run() throws SQLException;
    }

    public <T> List<T> query(String sql, RowMapper<T> mapper, Object... params) {
        return withConnection(connection -> {
            try (PreparedStatement statement = prepare(connection, sql, params);
                 ResultSet rows = statement.executeQuery()) {
                List<T> result = new ArrayList<>();
                while (rows.next()) {
                    result.add(mapper.map(rows));
                }
                return result;
            }
        });
    }

    public <T> Optional<T> queryOne(String sql, RowMapper<T> mapper, Object... params) {
        List<T> rows = query(sql, mapper, params);
        if (rows.size() > 1) {
            throw new StoreException("expected at most one row, got " + rows.size() + " for: " + firstLine(sql));
        }
        return rows.stream().findFirst();
    }

    public long queryLong(String sql, Object... params) {
        return queryOne(sql, row -> row.getLong(1), params).orElse(0L);
    }

    /** Runs an INSERT/UPDATE/DELETE and returns the number of rows it changed. */
    public int update(String sql, Object... params) {
        return withConnection(connection -> {
            try (PreparedStatement statement = prepare(connection, sql, params)) {
                return statement.executeUpdate();
            }
        });
    }

    /** Runs one statement for each parameter row in a single JDBC batch; returns the changed-row counts. */
    public int[] batch(String sql, List<Object[]> rows) {
        if (rows.isEmpty()) {
            return new int[0];
        }
        return withConnection(connection -> {
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                for (Object[] params : rows) {
                    bind(statement, params);
                    statement.addBatch();
                }
                return statement.executeBatch();
            }
        });
    }

    public <T> T inTransaction(TransactionBody<T> body) {
        if (current.get() != null) {
            return rethrowing(body);
        }
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            current.set(connection);
            try {
                T result = body.run();
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException | Error e) {
                connection.rollback();
                throw e;
            } finally {
                current.remove();
                connection.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw StoreException.from(e);
        }
    }

    /**
     * Runs {@code body}'s reads in one snapshot of the database (a read-only REPEATABLE READ transaction), so that
     * rows read by several statements agree with each other; inside a transaction already, in that transaction.
     */
    public <T> T inSnapshot(TransactionBody<T> body) {
        if (current.get() != null) {
            return rethrowing(body);
        }
        return inTransaction(() -> {
            update("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
            return body.run();
        });
    }

    public void inTransaction(Runnable body) {
        inTransaction(() -> {
            body.run();
            return null;
        });
    }

    private <T> T rethrowing(TransactionBody<T> body) {
        try {
            return body.run();
        } catch (SQLException e) {
            throw StoreException.from(e);
        }
    }

    private interface ConnectionWork<T> {
        T run(Connection connection) throws SQLException;
    }

    private <T> T withConnection(ConnectionWork<T> work) {
        try {
            Connection inTransaction = current.get();
            if (inTransaction != null) {
                return work.run(inTransaction);
            }
            try (Connection connection = dataSource.getConnection()) {
                return work.run(connection);
            }
        } catch (SQLException e) {
            throw StoreException.from(e);
        }
    }

    private static PreparedStatement prepare(Connection connection, String sql, Object[] params) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        try {
            bind(statement, params);
            return statement;
        } catch (SQLException | RuntimeException e) {
            statement.close();
            throw e;
        }
    }

    private static void bind(PreparedStatement statement, Object[] params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            Object value = params[i];
            int index = i + 1;
            if (value == null) {
                statement.setNull(index, Types.NULL);
            } else if (value instanceof Instant instant) {
                statement.setTimestamp(index, Timestamp.from(instant));
            } else if (value instanceof Enum<?> constant) {
                statement.setString(index, constant.name());
            } else if (value instanceof Json json) {
                statement.setObject(index, json.text(), Types.OTHER);
            } else if (value instanceof UUID uuid) {
                statement.setObject(index, uuid);
            } else if (value instanceof String[] array) {
                statement.setArray(index, statement.getConnection().createArrayOf("text", array));
            } else {
                statement.setObject(index, value);
            }
        }
    }

    /** Reads a timestamptz column as an Instant, null-safe. */
    public static Instant instant(ResultSet row, String column) throws SQLException {
        Timestamp timestamp = row.getTimestamp(column);
        return timestamp == null ? null : timestamp.toInstant();
    }

    /** Reads an integer column that may be NULL. */
    public static Integer nullableInt(ResultSet row, String column) throws SQLException {
        int value = row.getInt(column);
        return row.wasNull() ? null : value;
    }

    /** Reads a bigint column that may be NULL. */
    public static Long nullableLong(ResultSet row, String column) throws SQLException {
        long value = row.getLong(column);
        return row.wasNull() ? null : value;
    }

    private static String firstLine(String sql) {
        return sql.strip().lines().findFirst().orElse(sql);
    }

    /** A JSON text to bind as jsonb. */
    public record Json(String text) {
        public static Json of(String text) {
            return text == null ? null : new Json(text);
        }
    }
}
