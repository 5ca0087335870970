package dev.redrive.secret;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;

/**
 * What is wrong with text that is not JSON, said without quoting the text. Jackson's own messages quote what they
 * could not read ({@code Unrecognized token 'hunter2'}), so a malformed payload such as {@code {"password": hunter2}}
 * put its secret into the error message, where no masking could tell it from the words around it.
 */
public final class JsonErrors {
    private JsonErrors() {
    }

    /** E.g. "unexpected text at line 1, column 14": the kind of fault and where it is, never the input itself. */
    public static String describe(JsonProcessingException e) {
        return e instanceof StreamConstraintsException ? kind(e) : kind(e) + where(e.getLocation());
    }

    private static String kind(JsonProcessingException e) {
        if (e instanceof JsonEOFException) {
            return "the text ends inside a JSON value";
        }
        if (e instanceof StreamConstraintsException && e.getOriginalMessage() != null) {
            // "Number value length (1001) exceeds the maximum allowed (1000, ...)": it names the limit, not the input
            return e.getOriginalMessage().lines().findFirst().orElse("");
        }
        if (e instanceof InputCoercionException) {
            return "a number is out of range";
        }
        String original = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        if (original.startsWith("No content to map")) {
            return "there is no JSON value";
        }
        if (original.startsWith("Trailing token")) {
            return "more text follows the JSON value";
        }
        return "unexpected text";
    }

    private static String where(JsonLocation location) {
        if (location == null || location.getLineNr() < 1) {
            return "";
        }
        return " at line " + location.getLineNr() + ", column " + location.getColumnNr();
    }
}
