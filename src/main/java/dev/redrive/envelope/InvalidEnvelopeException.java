package dev.redrive.envelope;

/**
 * A message that is not a valid v1 dispatch; the message names the field and what is wrong with it, the code says
 * which rule it broke (the DLQ entry's error code).
 */
public class InvalidEnvelopeException extends IllegalArgumentException {
    /** A field is missing or does not have the form the wire contract asks for. */
    public static final String INVALID_ENVELOPE = "invalid_envelope";
    /** A text field holds a character PostgreSQL cannot store or an HTTP header cannot carry. */
    public static final String INVALID_TEXT = "invalid_text";
    /** A field's bytes are not UTF-8. */
    public static final String INVALID_UTF8 = "invalid_utf8";
    /** The payload is JSON, but not JSON the operation store can hold (a number out of range, a NUL character). */
    public static final String UNSTORABLE_PAYLOAD = "unstorable_payload";
    /** The payload is over the size limit. */
    public static final String PAYLOAD_TOO_LARGE = "payload_too_large";
    /** The payload holds a number no decimal can hold: its exponent is past what a parser reads ({@code 1e2147483648}). */
    public static final String UNREADABLE_NUMBER = "unreadable_number";
    /** The payload nests arrays and objects deeper than {@link JsonPayload#MAX_NESTING_DEPTH} levels. */
    public static final String NESTING_TOO_DEEP = "nesting_too_deep";

    private final String code;

    public InvalidEnvelopeException(String message) {
        this(INVALID_ENVELOPE, message);
    }

    public InvalidEnvelopeException(String code, String message) {
        super(message);
        this.code = code;
    }

    public String code() {
        return code;
    }
}
