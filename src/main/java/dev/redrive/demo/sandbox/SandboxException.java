package dev.redrive.demo.sandbox;

/** The sandbox could not be set up or run; the message says what went wrong. */
public final class SandboxException extends RuntimeException {
    public SandboxException(String message) {
        super(message);
    }

    public SandboxException(String message, Throwable cause) {
        super(message, cause);
    }
}
