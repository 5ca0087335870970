package dev.redrive.envelope;

/** A message that is not a valid v1 dispatch; the message names the field and what is wrong with it. */
public class InvalidEnvelopeException extends IllegalArgumentException {
    public InvalidEnvelopeException(String message) {
        super(message);
    }
}
