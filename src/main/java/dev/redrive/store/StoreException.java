package dev.redrive.store;

import java.sql.SQLException;

/** The operation store refused or failed a statement. Carries the SQLState so callers can tell refusals apart. */
public class StoreException extends RuntimeException {
    private final String sqlState;

    public StoreException(String message) {
        super(message);
        this.sqlState = null;
    }

    private StoreException(String message, String sqlState, Throwable cause) {
        super(message, cause);
        this.sqlState = sqlState;
    }

    public static StoreException from(SQLException e) {
        return new StoreException(e.getMessage(), e.getSQLState(), e);
    }

    public String sqlState() {
        return sqlState;
    }

    /** 42501: the database refused the statement (a trigger guarding history, or a role without the grant). */
    public boolean isRefused() {
        return "42501".equals(sqlState);
    }

    public boolean isUniqueViolation() {
        return "23505".equals(sqlState);
    }
}
