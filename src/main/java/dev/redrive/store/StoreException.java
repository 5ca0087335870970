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

    /**
     * Classes 22 (data exception: a number out of range, a character the encoding cannot hold, ...) and 54 (program
     * limit exceeded): the database refused a value, and will refuse it again, whereas a lost connection or a lock
     * timeout may pass.
     */
    public boolean isBadValue() {
        return sqlState != null && (sqlState.startsWith("22") || sqlState.startsWith("54"));
    }

    public boolean isUniqueViolation() {
        return "23505".equals(sqlState);
    }
}
