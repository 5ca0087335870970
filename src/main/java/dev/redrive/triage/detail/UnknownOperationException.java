package dev.redrive.triage.detail;

/** An operation id the store has no record of. */
public class UnknownOperationException extends IllegalArgumentException {
    /** @param namespace where it was looked for: a wrong --namespace is the usual cause, so the line names it */
    public UnknownOperationException(String operationId, String namespace) {
        super("no operation '" + operationId + "' in namespace " + namespace);
    }
}
