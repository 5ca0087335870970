package dev.redrive.triage.correction;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.redrive.triage.redaction.Redactor;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a correction changed in a payload, field by field, with secrets masked by the redactor's rules: what the audit
 * log keeps and what the CLI prints. Objects are compared field by field; any other value as a whole.
 */
public record PayloadDiff(List<Change> changes) {

    public PayloadDiff {
        changes = List.copyOf(changes);
    }

    /**
     * One changed place.
     *
     * @param path   {@code /customer/email}, JSON Pointer style
     * @param kind   added, removed or changed
     * @param before the original value, masked; null when added
     * @param after  the corrected value, masked; null when removed
     */
    public record Change(String path, String kind, JsonNode before, JsonNode after) {
    }

    public static PayloadDiff between(JsonNode original, JsonNode corrected, Redactor redactor) {
        List<Change> changes = new ArrayList<>();
        compare(original, corrected, "", false, redactor, changes);
        return new PayloadDiff(changes);
    }

    public boolean isEmpty() {
        return changes.isEmpty();
    }

    private static void compare(JsonNode before, JsonNode after, String path, boolean secret, Redactor redactor,
                                List<Change> changes) {
        if (before != null && after != null && before.isObject() && after.isObject()) {
            Set<String> names = new LinkedHashSet<>();
            before.fieldNames().forEachRemaining(names::add);
            after.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                compare(before.get(name), after.get(name), path + "/" + name, secret || redactor.masks(name), redactor,
                        changes);
            }
            return;
        }
        if (before != null && before.equals(after)) {
            return;
        }
        String kind = before == null ? "added" : after == null ? "removed" : "changed";
        changes.add(new Change(path.isEmpty() ? "/" : path, kind, shown(before, secret, redactor),
                shown(after, secret, redactor)));
    }

    private static JsonNode shown(JsonNode value, boolean secret, Redactor redactor) {
        if (value == null) {
            return null;
        }
        return secret ? TextNode.valueOf(Redactor.MASK) : redactor.redact(value);
    }

    /** "changed /amount: -5 → 10", one line per change. */
    public List<String> lines() {
        List<String> lines = new ArrayList<>();
        for (Change change : changes) {
            lines.add(change.kind() + " " + change.path() + ": " + text(change.before()) + " → " + text(change.after()));
        }
        return lines;
    }

    private static String text(JsonNode value) {
        return value == null ? "(none)" : value.toString();
    }
}
