package dev.redrive.worker.retry;

import dev.redrive.worker.retry.ToolGate.ToolBudget;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Token buckets in this process, refilled by the clock the worker runs on. */
public final class LocalTokenBuckets implements TokenBuckets {
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    @Override
    public Duration take(String tool, ToolBudget budget, Instant now) {
        return buckets.computeIfAbsent(tool, name -> new Bucket(budget, now)).take(now);
    }

    @Override
    public void giveBack(String tool, ToolBudget budget) {
        Bucket bucket = buckets.get(tool);
        if (bucket != null) {
            bucket.giveBack();
        }
    }

    private static final class Bucket {
        private final ToolBudget budget;
        private double tokens;
        private Instant refilledAt;

        Bucket(ToolBudget budget, Instant now) {
            this.budget = budget;
            this.tokens = budget.burst();
            this.refilledAt = now;
        }

        synchronized Duration take(Instant now) {
            if (now.isAfter(refilledAt)) {
                double elapsed = Duration.between(refilledAt, now).toNanos() / 1e9;
                tokens = Math.min(budget.burst(), tokens + elapsed * budget.permitsPerSecond());
                refilledAt = now;
            }
            if (tokens >= 1) {
                tokens -= 1;
                return Duration.ZERO;
            }
            return Duration.ofNanos((long) Math.ceil((1 - tokens) / budget.permitsPerSecond() * 1e9));
        }

        synchronized void giveBack() {
            tokens = Math.min(budget.burst(), tokens + 1);
        }
    }
}
