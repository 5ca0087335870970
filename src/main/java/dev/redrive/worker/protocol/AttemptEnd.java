package dev.redrive.worker.protocol;

import dev.redrive.model.LastCall;
import dev.redrive.store.operation.AttemptCommit;

/** How running a {@link Job} ended: with something to commit, or with a crash of the handler. */
sealed interface AttemptEnd {
    Job job();

    record Finished(Job job, AttemptCommit commit) implements AttemptEnd {
    }

    /** The lease expired or was taken over while the attempt waited for a pool thread: the tool was not called. */
    record NotStarted(Job job) implements AttemptEnd {
    }

    /**
     * @param inTool the crash came out of the tool call, or after it, so the tool may have acted
     * @param call   what the crash leaves known of the attempt's call, for whoever claims the operation next
     */
    record Crashed(Job job, Throwable error, boolean inTool, LastCall call) implements AttemptEnd {
        /** The handler failed before the tool was called: what was known of the latest call before the claim holds. */
        static Crashed beforeTheCall(Job job, Throwable error) {
            return new Crashed(job, error, false, job.lease().priorCall());
        }

        /** The tool's own code gave up: its answer, like a classified failure's, is that the call failed. */
        static Crashed inTheTool(Job job, Throwable error) {
            return new Crashed(job, error, true, LastCall.ANSWERED_FAILURE);
        }

        /**
         * The tool answered, and the worker failed before it recorded the answer (Redis stalled while a dead letter
         * read its delivery history, say): the call was made and nobody knows how it ended, so it is looked up first.
         */
        static Crashed afterTheCall(Job job, Throwable error) {
            return new Crashed(job, error, true, LastCall.IN_DOUBT);
        }
    }
}
