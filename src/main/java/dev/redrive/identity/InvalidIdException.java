package dev.redrive.identity;

/** An id that does not follow the rules in the wire contract. */
public class InvalidIdException extends IllegalArgumentException {
    public InvalidIdException(String message) {
        super(message);
    }
}
