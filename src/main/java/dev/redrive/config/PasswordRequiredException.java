package dev.redrive.config;

/**
 * PostgreSQL asked for a password and none was given. A command run from a terminal asks for it and tries again; run
 * without one, the line says where a password may come from.
 */
public final class PasswordRequiredException extends AccessRefusedException {
    public PasswordRequiredException(String server, Throwable cause) {
        super(server + " asks for a password and none was given: put it in a file named by REDRIVE_PG_PASSWORD_FILE "
                + "(--pg-password-file) or in ~/.pgpass, or run the command from a terminal to be asked for it", cause);
    }
}
