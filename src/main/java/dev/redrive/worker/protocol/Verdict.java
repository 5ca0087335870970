package dev.redrive.worker.protocol;

import java.time.Instant;

/** What the facts in PostgreSQL say to do with one valid dispatch, before any lease is taken. */
sealed interface Verdict {

    /** The operation already succeeded: ack, the stored result stands, no tool call. */
    record AlreadySucceeded() implements Verdict {
    }

    /** Not eligible: record why, ack; {@code repair} re-announces what a crash may have kept from Redis. */
    record Discard(String reason, boolean cancelOperation, boolean failCommand, Repair repair) implements Verdict {
    }

    /** Another delivery of the operation holds a live lease; ack this one only when it is a different entry. */
    record Duplicate(String reason, boolean ack) implements Verdict {
    }

    /** A scheduled retry published before it was due: put it back in the retry set, ack. */
    record NotDue(Instant until) implements Verdict {
    }

    /** Claim the lease and execute. {@code takeover}: an earlier lease expired, the effect may have happened. */
    record Claim(boolean takeover) implements Verdict {
    }

    /** Claimed by as many deliveries as the delivery limit without being settled: claim and dead-letter it. */
    record Poison(boolean takeover) implements Verdict {
    }

    enum Repair { NONE, REPUBLISH_RETRY, REPUBLISH_DEAD_LETTER }
}
