package dev.redrive.store.operation;

/**
 * What recording a dispatch found.
 *
 * @param conflict null unless the outcome is {@link Outcome#CONFLICT}: then one line naming what differs (the two
 *                 parameter hashes, the schema versions, or the operation the idempotency key is bound to)
 */
public record Recorded(Outcome outcome, String conflict) {
    public enum Outcome {
        /** The operation was new and is recorded now. */
        CREATED,
        /** The operation was recorded before with the same parameters: the dispatch is a repeat of it. */
        ALREADY_RECORDED,
        /** The operation id, or the idempotency key, is already bound to other parameters. */
        CONFLICT
    }

    static Recorded created() {
        return new Recorded(Outcome.CREATED, null);
    }

    static Recorded alreadyRecorded() {
        return new Recorded(Outcome.ALREADY_RECORDED, null);
    }

    static Recorded conflict(String why) {
        return new Recorded(Outcome.CONFLICT, why);
    }
}
