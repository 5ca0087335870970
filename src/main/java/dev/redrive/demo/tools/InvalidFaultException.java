package dev.redrive.demo.tools;

/** A payload asked for a fault the demo tools do not know, or wrote it wrongly; the message names what. */
public final class InvalidFaultException extends IllegalArgumentException {
    public InvalidFaultException(String message) {
        super(message);
    }
}
