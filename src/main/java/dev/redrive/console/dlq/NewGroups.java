package dev.redrive.console.dlq;

import dev.redrive.health.DlqEvent;
import dev.redrive.triage.query.DlqQueries;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The failure groups that start while the console watches the DLQ: a fingerprint no entry had before. An operator is
 * told once per new kind of failure, however many entries follow it; more of a known failure tells nothing new.
 */
final class NewGroups {
    /** Fingerprints already judged; each is read from the database once. */
    private final Set<String> known = new HashSet<>();

    /** The groups that {@code arrived} started, in the order they arrived; each fingerprint is judged once. */
    List<NewGroup> startedBy(List<DlqEvent> arrived, DlqQueries queries) {
        Map<String, Long> unknown = new LinkedHashMap<>();
        Map<String, DlqEvent> first = new LinkedHashMap<>();
        for (DlqEvent event : arrived) {
            if (event.fingerprint() != null && !known.contains(event.fingerprint())) {
                unknown.merge(event.fingerprint(), 1L, Long::sum);
                first.putIfAbsent(event.fingerprint(), event);
            }
        }
        if (unknown.isEmpty()) {
            return List.of();
        }
        Set<String> started = queries.startedBy(unknown.keySet(), arrived.stream().map(DlqEvent::dlqEntryId).toList());
        known.addAll(unknown.keySet());
        return first.values().stream().filter(event -> started.contains(event.fingerprint()))
                .map(event -> new NewGroup(event.fingerprint(), event.tool(), event.errorClass(),
                        unknown.get(event.fingerprint())))
                .toList();
    }
}
