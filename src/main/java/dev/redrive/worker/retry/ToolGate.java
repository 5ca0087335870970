package dev.redrive.worker.retry;

import dev.redrive.model.FailureClass;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Per-tool admission: a circuit breaker that a DEPENDENCY_DOWN opens for the whole tool until the failed call's
 * retry is due, and a rate budget (a token bucket) that keeps calls under the tool's allowed rate. Operations arriving
 * while the gate is closed are deferred until it opens, without spending an attempt. Pauses are shared through
 * {@link ToolPauses}: a worker publishes the pauses it sets and reads the others' at most once per refresh period; the
 * budgets' permits come from {@link TokenBuckets}, which the workers may share too.
 */
public final class ToolGate {
    private static final Logger LOG = LoggerFactory.getLogger(ToolGate.class);

    private final Map<String, ToolBudget> budgets;
    private final ToolPauses shared;
    private final Duration refresh;
    private final TokenBuckets buckets;
    private final Map<String, State> states = new ConcurrentHashMap<>();
    private final AtomicReference<Instant> nextRefresh = new AtomicReference<>(Instant.MIN);

    /** @param budgets calls per second allowed per tool; tools not named are not limited */
    public ToolGate(Map<String, ToolBudget> budgets) {
        this(budgets, ToolPauses.LOCAL, Duration.ZERO, new LocalTokenBuckets());
    }

    /**
     * @param refresh how long the other workers' pauses read from {@code shared} are relied on before reading again
     * @param buckets where the budgets' permits are kept (shared by the workers, or this process's own)
     */
    public ToolGate(Map<String, ToolBudget> budgets, ToolPauses shared, Duration refresh, TokenBuckets buckets) {
        this.budgets = Map.copyOf(budgets);
        this.shared = shared;
        this.refresh = refresh;
        this.buckets = buckets;
    }

    /**
     * Takes a call permit for {@code tool} if the gate is open.
     *
     * @return empty when the call may go ahead, else until when and why the gate is closed
     */
    public Optional<Closed> admit(String tool, Instant now) {
        readSharedPauses(now);
        Optional<Closed> paused = state(tool).closedAt(now);
        ToolBudget budget = budgets.get(tool);
        if (paused.isPresent() || budget == null) {
            return paused;
        }
        Duration wait = buckets.take(tool, budget, now);
        return wait.isZero() ? Optional.empty() : Optional.of(new Closed(now.plus(wait), FailureClass.RATE_LIMITED));
    }

    /** Returns a permit {@link #admit} took for a call that is not going to be made. */
    public void giveBack(String tool) {
        ToolBudget budget = budgets.get(tool);
        if (budget != null) {
            buckets.giveBack(tool, budget);
        }
    }

    /** Closes the gate of {@code tool} until {@code until} (a later pause already in force is kept). */
    public void pause(String tool, Instant until, FailureClass because) {
        state(tool).pause(until, because);
        try {
            shared.publish(tool, until, because);
        } catch (RuntimeException e) {
            LOG.warn("could not share the pause of {} until {}: {}", tool, until, e.toString());
        }
    }

    private State state(String tool) {
        return states.computeIfAbsent(tool, name -> new State());
    }

    /** Merges the other workers' pauses in, once per refresh period; an unreadable broker leaves the local ones. */
    private void readSharedPauses(Instant now) {
        Instant due = nextRefresh.get();
        if (now.isBefore(due) || !nextRefresh.compareAndSet(due, now.plus(refresh))) {
            return;
        }
        try {
            shared.read().forEach((tool, closed) -> state(tool).pause(closed.until(), closed.because()));
        } catch (RuntimeException e) {
            LOG.warn("could not read the tools paused by other workers: {}", e.toString());
        }
    }

    /** The gate is closed until {@code until} because of a failure of class {@code because}. */
    public record Closed(Instant until, FailureClass because) {
    }

    /** A tool's allowed rate: {@code permitsPerSecond} on average, bursts of up to {@code burst} calls. */
    public record ToolBudget(double permitsPerSecond, int burst) {
        public ToolBudget {
            if (permitsPerSecond <= 0 || burst < 1) {
                throw new IllegalArgumentException("a tool budget needs a positive rate and a burst of 1 or more");
            }
        }
    }

    /** A tool's pause: closed until a time, because of a failure class. */
    private static final class State {
        private Instant pausedUntil = Instant.MIN;
        private FailureClass pausedBecause;

        synchronized Optional<Closed> closedAt(Instant now) {
            return now.isBefore(pausedUntil) ? Optional.of(new Closed(pausedUntil, pausedBecause)) : Optional.empty();
        }

        synchronized void pause(Instant until, FailureClass because) {
            if (until.isAfter(pausedUntil)) {
                pausedUntil = until;
                pausedBecause = because;
            }
        }
    }
}
