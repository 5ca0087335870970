package dev.redrive.triage.query;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Objects;

/**
 * A position in the DLQ's order (entered_at, then id; see {@link DlqOrder}): the key of one row. Pages start right
 * after or right before it, so paging stays fast at any depth.
 */
public record DlqCursor(Instant enteredAt, long id) {

    public DlqCursor {
        Objects.requireNonNull(enteredAt, "enteredAt");
    }

    /** A text form for command lines and URLs: {@code 2026-11-30T01:02:03.456Z/1234}. */
    public String token() {
        return enteredAt + "/" + id;
    }

    /** Parses {@link #token()}; the message names what is wrong. */
    public static DlqCursor parse(String token) {
        int slash = token == null ? -1 : token.lastIndexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException("a cursor looks like 2026-11-30T01:02:03.456Z/1234, got '" + token + "'");
        }
        try {
            return new DlqCursor(Instant.parse(token.substring(0, slash)), Long.parseLong(token.substring(slash + 1)));
        } catch (DateTimeParseException | NumberFormatException e) {
            throw new IllegalArgumentException("a cursor looks like 2026-11-30T01:02:03.456Z/1234, got '" + token + "'");
        }
    }

    @Override
    public String toString() {
        return token();
    }
}
