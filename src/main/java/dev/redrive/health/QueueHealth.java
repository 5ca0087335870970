package dev.redrive.health;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * One reading of a namespace's queues: the dispatch stream and its consumer group (Redis), the retry set (Redis) and
 * the dead-letter queue (PostgreSQL, the source of truth for depth and growth).
 *
 * @param dispatchLength     XLEN of the dispatch stream
 * @param groupLag           entries the {@code workers} group has not read yet (XINFO GROUPS lag), null when Redis
 *                           cannot tell
 * @param pendingCount       entries delivered but not acknowledged (XPENDING)
 * @param oldestPendingIdle  the longest idle time among the pending entries looked at, null when none is pending
 * @param pending            the longest-idle pending entries, most idle first
 * @param retrySetSize       ZCARD of the retry set
 * @param nextRetryDue       when the earliest scheduled retry is due, null when the set is empty
 * @param dlqOpen            DLQ entries still waiting for a decision
 * @param dlqNewLastMinute   DLQ entries that arrived in the minute before {@code at}
 * @param dlqNewLastHour     DLQ entries that arrived in the hour before {@code at}
 * @param oldestOpenEnteredAt when the oldest undecided DLQ entry arrived, null when none is open
 * @param unservedTools      tools whose dispatches met no worker that had announced them ({@code {ns}:unserved-tools}):
 *                           their dispatches are handed on until the grace ends, then dead-lettered
 */
public record QueueHealth(
        Instant at,
        long dispatchLength,
        Long groupLag,
        long pendingCount,
        Duration oldestPendingIdle,
        List<PendingDelivery> pending,
        long retrySetSize,
        Instant nextRetryDue,
        long dlqOpen,
        long dlqNewLastMinute,
        long dlqNewLastHour,
        Instant oldestOpenEnteredAt,
        List<String> unservedTools) {

    public QueueHealth {
        pending = List.copyOf(pending);
        unservedTools = List.copyOf(unservedTools);
    }

    /** How long the oldest undecided DLQ entry has been waiting, null when none is open. */
    public Duration oldestOpenAge() {
        return oldestOpenEnteredAt == null ? null : Duration.between(oldestOpenEnteredAt, at);
    }

    /** A delivered, unacknowledged dispatch: who holds it, for how long, how often it was delivered. */
    public record PendingDelivery(String entryId, String consumer, Duration idle, long deliveryCount) {
    }
}
