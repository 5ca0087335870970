package dev.redrive.triage.precondition;

import java.time.Instant;
import java.util.List;

/**
 * Every precondition result for one redrive target at one moment.
 *
 * @param dlqEntryId          the entry checked, null when the operation has none
 * @param entryVersion        the entry's version at the check, what a decision is then guarded by
 * @param fromAttempt         the operation's attempt at the check
 * @param targetSchemaVersion the schema version a redrive would dispatch with
 */
public record PreconditionReport(
        String operationId,
        Long dlqEntryId,
        Integer entryVersion,
        int fromAttempt,
        String targetSchemaVersion,
        Instant checkedAt,
        List<PreconditionResult> results) {

    public PreconditionReport {
        results = List.copyOf(results);
    }

    public boolean allPassed() {
        return results.stream().allMatch(PreconditionResult::passed);
    }

    public List<PreconditionResult> failed() {
        return results.stream().filter(result -> !result.passed()).toList();
    }

    public PreconditionResult result(PreconditionId id) {
        return results.stream().filter(result -> result.id() == id).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no result for " + id));
    }
}
