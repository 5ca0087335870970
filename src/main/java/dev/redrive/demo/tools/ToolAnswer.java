package dev.redrive.demo.tools;

import java.util.Map;

/**
 * What the service answers: status, JSON body and extra headers. A {@code lost} answer is only sent after the stall,
 * when the client has long given up.
 */
record ToolAnswer(int status, String body, Map<String, String> headers, boolean lost) {

    static ToolAnswer of(int status, String body) {
        return new ToolAnswer(status, body, Map.of(), false);
    }

    ToolAnswer withHeader(String name, String value) {
        Map<String, String> more = new java.util.LinkedHashMap<>(headers);
        more.put(name, value);
        return new ToolAnswer(status, body, Map.copyOf(more), lost);
    }

    ToolAnswer lostInTransit() {
        return new ToolAnswer(status, body, headers, true);
    }
}
