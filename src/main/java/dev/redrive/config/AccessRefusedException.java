package dev.redrive.config;

/**
 * PostgreSQL answered and refused the login: a role that does not exist, a wrong password, no CONNECT privilege or
 * no pg_hba.conf entry for it. The server is there, so this is never reported as unreachable; the message is one
 * line naming the server, the user and the server's reason.
 */
public class AccessRefusedException extends RuntimeException {
    public AccessRefusedException(String message, Throwable cause) {
        super(message, cause);
    }
}
