package dev.redrive.triage.detail;

/** An operation id the store has no record of. */
public class UnknownOperationException extends IllegalArgumentException {
    public UnknownOperationException(String operationId) {
        super("no operation '" + operationId + "' in this namespace");
    }
}
