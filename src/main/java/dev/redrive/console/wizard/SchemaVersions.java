package dev.redrive.console.wizard;

import dev.redrive.triage.detail.ToolSchemaRecord;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/** A changed tool schema in words: the recorded versions side by side, and what is known of the difference. */
final class SchemaVersions {
    private SchemaVersions() {
    }

    static String describe(String tool, String dispatched, String current, List<ToolSchemaRecord> versions, String payload) {
        String recorded = versions.isEmpty() ? "no versions recorded" : versions.stream()
                .map(v -> "version " + v.version() + role(v.version(), dispatched, current) + ": registered by "
                        + v.registeredBy() + " at " + v.registeredAt())
                .collect(Collectors.joining("\n"));
        // tool_schemas holds versions only: nothing says which fields changed, so say so instead of guessing.
        return tool + " was dispatched with version " + dispatched + "; version " + current + " is current now.\n"
                + recorded + "\nWhat changed: " + tool + " registers no field definitions, so the fields that differ "
                + "cannot be shown. Check the payload against what version " + current + " expects:\n" + payload;
    }

    private static String role(String version, String dispatched, String current) {
        boolean then = Objects.equals(version, dispatched);
        boolean now = Objects.equals(version, current);
        return then && now ? " (dispatched with, current)" : then ? " (dispatched with)" : now ? " (current)" : "";
    }
}
