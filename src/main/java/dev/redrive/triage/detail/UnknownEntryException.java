package dev.redrive.triage.detail;

/** A DLQ entry id the store has no record of. */
public class UnknownEntryException extends IllegalArgumentException {
    public UnknownEntryException(long entryId) {
        super("no DLQ entry " + entryId + " in this namespace");
    }
}
