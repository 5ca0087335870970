package dev.redrive.worker.retry;

import dev.redrive.worker.retry.ToolGate.ToolBudget;

import java.time.Duration;
import java.time.Instant;

/** Where a tool's rate budget is kept: one token bucket per tool, in this process or shared by every worker. */
public interface TokenBuckets {
    /** Takes one permit from the tool's bucket: {@link Duration#ZERO} when taken, else how long until one is there. */
    Duration take(String tool, ToolBudget budget, Instant now);

    /** Returns a permit taken for a call that is not going to be made; the burst stays the cap. */
    void giveBack(String tool, ToolBudget budget);
}
