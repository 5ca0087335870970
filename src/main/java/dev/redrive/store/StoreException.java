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

    /** The same failure told in other words: the SQLState, and with it what kind of failure it is, is kept. */
    public StoreException withMessage(String message) {
        return new StoreException(message, sqlState, this);
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

    /**
     * 42P01 (undefined table) or 3F000 (invalid schema name): a statement found no table of the namespace. Either the
     * namespace was never migrated (or not to this version), or the role may not use its schema, whose tables
     * PostgreSQL then leaves out of the search path: {@link Database#schemaPresence()} tells which.
     */
    public boolean isSchemaMissing() {
        return "42P01".equals(sqlState) || "3F000".equals(sqlState);
    }

    /** Class 08: the connection to PostgreSQL could not be made or was lost. */
    public boolean isConnectionFailure() {
        return sqlState != null && sqlState.startsWith("08");
    }

    public boolean isUniqueViolation() {
        return "23505".equals(sqlState);
    }
}
