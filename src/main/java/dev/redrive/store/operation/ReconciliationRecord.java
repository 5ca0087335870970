package dev.redrive.store.operation;

/**
 * What a reconciliation found out about an operation's side effect.
 *
 * @param outcome  APPLIED, NOT_APPLIED or UNKNOWN
 * @param source   TOOL, OPERATOR or WORKER
 * @param result   the tool's stored result when the effect was applied (JSON), else null
 */
public record ReconciliationRecord(String outcome, String source, String evidence, String result, String recordedBy) {
}
