package dev.redrive.triage.detail;

/** A DLQ entry id the store has no record of. */
public class UnknownEntryException extends IllegalArgumentException {
    /** @param namespace where it was looked for: a wrong --namespace is the usual cause, so the line names it */
    public UnknownEntryException(long entryId, String namespace) {
        super("no DLQ entry " + entryId + " in namespace " + namespace);
    }
}
