package dev.redrive.testing;

import dev.redrive.store.Jdbc;

import java.util.List;

/**
 * Repeated calls as a tool that is not idempotent would feel them, read from the demo tools' ledger: a blind recall is
 * a call for a key whose previous call was not followed by a look-up answering "not applied" (404). Effects per key
 * cannot show it, since the demo tools replay a key's first result unless they apply every call. A call refused
 * because it arrived after its deadline (408: a worker paused past its lease) did nothing and is not counted.
 */
public final class BlindRecalls {
    private static final String BLIND = """
            SELECT c.idempotency_key
              FROM demo_tool_calls c
              JOIN LATERAL (SELECT max(p.seq) AS seq FROM demo_tool_calls p
                             WHERE p.tool = c.tool AND p.idempotency_key = c.idempotency_key AND p.seq < c.seq
                               AND p.http_status <> 408) prev
                ON prev.seq IS NOT NULL
             WHERE c.http_status <> 408
               AND NOT EXISTS (SELECT 1 FROM demo_tool_lookups l
                                WHERE l.tool = c.tool AND l.idempotency_key = c.idempotency_key
                                  AND l.http_status = 404 AND l.seq > prev.seq AND l.seq < c.seq)
             ORDER BY c.seq
            """;

    private BlindRecalls() {
    }

    /** The idempotency key of every blind recall, once per recall, in the order they happened. */
    public static List<String> in(Jdbc jdbc) {
        return jdbc.query(BLIND, row -> row.getString(1));
    }
}
