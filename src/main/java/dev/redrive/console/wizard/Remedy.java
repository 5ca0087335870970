package dev.redrive.console.wizard;

import dev.redrive.triage.precondition.PreconditionId;

/**
 * What the operator can do about a failed check, right where it fails: choose the current schema version, take
 * another decision instead of the redrive, or read the entry again.
 *
 * @param tool    for {@link Action#CHOOSE_SCHEMA}: the tool whose version is chosen
 * @param version for {@link Action#CHOOSE_SCHEMA}: the version, null = back to the dispatched one
 */
public record Remedy(PreconditionId check, Action action, String label, String tool, String version) {

    public enum Action {
        /** Redrive with a schema version the operator declares compatible (the CLI's {@code --schema-version}). */
        CHOOSE_SCHEMA,
        /** Go on to the decision with Resolve chosen. */
        RESOLVE,
        /** Go on to the decision with Discard chosen. */
        DISCARD,
        /** Read the entries and check again: someone else changed or decided them. */
        REFRESH
    }

    /** Whether taking the remedy moves the wizard on to the decision step. */
    public boolean advances() {
        return action == Action.RESOLVE || action == Action.DISCARD;
    }
}
