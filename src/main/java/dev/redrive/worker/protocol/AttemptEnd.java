package dev.redrive.worker.protocol;

import dev.redrive.store.operation.AttemptCommit;

/** How running a {@link Job} ended: with something to commit, or with a crash of the handler. */
sealed interface AttemptEnd {
    Job job();

    record Finished(Job job, AttemptCommit commit) implements AttemptEnd {
    }

    /** The lease expired or was taken over while the attempt waited for a pool thread: the tool was not called. */
    record NotStarted(Job job) implements AttemptEnd {
    }

    /** @param inTool the crash came out of the tool call, so the tool may have acted */
    record Crashed(Job job, Throwable error, boolean inTool) implements AttemptEnd {
    }
}
