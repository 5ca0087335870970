package dev.redrive.config;

/** PostgreSQL or Redis could not be reached; the message is one line naming which server and why. */
public class ServiceUnavailableException extends RuntimeException {
    public ServiceUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    /** The innermost cause's message: "Connection refused" says more to an operator than a pool's wrapper. */
    public static String rootMessage(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return message == null || message.isBlank() ? root.getClass().getSimpleName() : message.lines().findFirst().orElse(message);
    }
}
