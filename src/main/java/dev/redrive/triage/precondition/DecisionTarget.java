package dev.redrive.triage.precondition;

import dev.redrive.triage.query.DlqRow;

/**
 * What an operator decides about, as they saw it.
 *
 * @param operationId         the operation; null = the DLQ entry alone, a message dead-lettered as itself (see
 *                            {@link PreconditionEngine#resolve})
 * @param dlqEntryId          the entry they looked at; null = the operation's open entry
 * @param seenVersion         the entry version they saw; null = whatever it is when the decision is taken (the CLI)
 * @param chosenSchemaVersion for a redrive: a newer tool schema version the operator explicitly declares compatible;
 *                            null = keep the dispatched one
 */
public record DecisionTarget(String operationId, Long dlqEntryId, Integer seenVersion, String chosenSchemaVersion) {

    public DecisionTarget {
        if ((operationId == null || operationId.isBlank()) && dlqEntryId == null) {
            throw new IllegalArgumentException("a decision needs an operation id or a DLQ entry id");
        }
        operationId = operationId == null || operationId.isBlank() ? null : operationId;
        chosenSchemaVersion = chosenSchemaVersion == null || chosenSchemaVersion.isBlank() ? null : chosenSchemaVersion.strip();
    }

    /** The operation's open entry, whatever its version. */
    public static DecisionTarget operation(String operationId) {
        if (operationId == null || operationId.isBlank()) {
            throw new IllegalArgumentException("a decision needs an operation id");
        }
        return new DecisionTarget(operationId, null, null, null);
    }

    /** One DLQ entry by its id, whatever its version, with or without an operation. */
    public static DecisionTarget entry(long dlqEntryId) {
        return new DecisionTarget(null, dlqEntryId, null, null);
    }

    /**
     * Exactly the row the operator sees in a list: its entry at its version, with its operation when it is that
     * operation's own entry; an entry that only names an operation is decided alone.
     */
    public static DecisionTarget of(DlqRow row) {
        return new DecisionTarget(row.ownEntry() ? row.operationId() : null, row.id(), row.version(), null);
    }

    /** Whether the target is a DLQ entry without an operation, once {@link PreconditionEngine#resolve resolved}. */
    public boolean entryOnly() {
        return operationId == null;
    }

    public DecisionTarget withSchemaVersion(String version) {
        return new DecisionTarget(operationId, dlqEntryId, seenVersion, version);
    }
}
