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
 * {@link ToolPauses}: a worker publishes the pauses it sets and reads the others' at most once per refresh period.
 */
public final class ToolGate {
    private static final Logger LOG = LoggerFactory.getLogger(ToolGate.class);

    private final Map<String, ToolBudget> budgets;
    private final ToolPauses shared;
    private final Duration refresh;
    private final Map<String, State> states = new ConcurrentHashMap<>();
    private final AtomicReference<Instant> nextRefresh = new AtomicReference<>(Instant.MIN);

    /** @param budgets calls per second allowed per tool; tools not named are not limited */
    public ToolGate(Map<String, ToolBudget> budgets) {
        this(budgets, ToolPauses.LOCAL, Duration.ZERO);
    }

    /** @param refresh how long the other workers' pauses read from {@code shared} are relied on before reading again */
    public ToolGate(Map<String, ToolBudget> budgets, ToolPauses shared, Duration refresh) {
        this.budgets = Map.copyOf(budgets);
        this.shared = shared;
        this.refresh = refresh;
    }

    /**
     * Takes a call permit for {@code tool} if the gate is open.
     *
     * @return empty when the call may go ahead, else until when and why the gate is closed
     */
    public Optional<Closed> admit(String tool, Instant now) {
        readSharedPauses(now);
        return state(tool, now).admit(now);
    }

    /** Returns a permit {@link #admit} took for a call that is not going to be made. */
    public void giveBack(String tool) {
        State state = states.get(tool);
        if (state != null) {
            state.giveBack();
        }
    }

    /** Closes the gate of {@code tool} until {@code until} (a later pause already in force is kept). */
    public void pause(String tool, Instant until, FailureClass because) {
        state(tool, until).pause(until, because);
        try {
            shared.publish(tool, until, because);
        } catch (RuntimeException e) {
            LOG.warn("could not share the pause of {} until {}: {}", tool, until, e.toString());
        }
    }

    private State state(String tool, Instant now) {
        return states.computeIfAbsent(tool, name -> new State(budgets.get(name), now));
    }

    /** Merges the other workers' pauses in, once per refresh period; an unreadable broker leaves the local ones. */
    private void readSharedPauses(Instant now) {
        Instant due = nextRefresh.get();
        if (now.isBefore(due) || !nextRefresh.compareAndSet(due, now.plus(refresh))) {
            return;
        }
        try {
            shared.read().forEach((tool, closed) -> state(tool, now).pause(closed.until(), closed.because()));
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

    private static final class State {
        private final ToolBudget budget;
        private Instant pausedUntil = Instant.MIN;
        private FailureClass pausedBecause;
        private double tokens;
        private Instant refilledAt;

        State(ToolBudget budget, Instant now) {
            this.budget = budget;
            this.tokens = budget == null ? 0 : budget.burst();
            this.refilledAt = now;
        }

        synchronized Optional<Closed> admit(Instant now) {
            if (now.isBefore(pausedUntil)) {
                return Optional.of(new Closed(pausedUntil, pausedBecause));
            }
            if (budget == null) {
                return Optional.empty();
            }
            if (now.isAfter(refilledAt)) {
                double elapsed = Duration.between(refilledAt, now).toNanos() / 1e9;
                tokens = Math.min(budget.burst(), tokens + elapsed * budget.permitsPerSecond());
                refilledAt = now;
            }
            if (tokens >= 1) {
                tokens -= 1;
                return Optional.empty();
            }
            long waitNanos = (long) Math.ceil((1 - tokens) / budget.permitsPerSecond() * 1e9);
            return Optional.of(new Closed(now.plusNanos(waitNanos), FailureClass.RATE_LIMITED));
        }

        synchronized void giveBack() {
            if (budget != null) {
                tokens = Math.min(budget.burst(), tokens + 1);
            }
        }

        synchronized void pause(Instant until, FailureClass because) {
            if (until.isAfter(pausedUntil)) {
                pausedUntil = until;
                pausedBecause = because;
            }
        }
    }
}
