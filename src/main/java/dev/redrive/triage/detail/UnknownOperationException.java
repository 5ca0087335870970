package dev.redrive.triage.detail;

import dev.redrive.identity.InvalidIdException;
import dev.redrive.identity.OperationId;

/** An operation id the store has no record of. */
public class UnknownOperationException extends IllegalArgumentException {
    /** @param namespace where it was looked for: a wrong --namespace is the usual cause, so the line names it */
    public UnknownOperationException(String operationId, String namespace) {
        super("no operation '" + operationId + "' in namespace " + namespace + form(operationId));
    }

    /** A text that is no operation id at all is more likely mistyped than looked for in the wrong namespace. */
    private static String form(String operationId) {
        try {
            OperationId.parse(operationId);
            return "";
        } catch (InvalidIdException e) {
            return "; an operation id has the form RUN:NODE:LOGICAL_ATTEMPT (dlq list shows them)";
        }
    }
}
