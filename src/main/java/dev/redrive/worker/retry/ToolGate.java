package dev.redrive.worker.retry;

import dev.redrive.model.FailureClass;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-tool admission: a circuit breaker that a DEPENDENCY_DOWN opens for the whole tool until the failed call's
 * retry is due, and a
 * rate budget (a token bucket) that keeps calls under the tool's allowed rate. Operations arriving while the gate is
 * closed are deferred until it opens, without spending an attempt.
 */
public final class ToolGate {
    private final Map<String, ToolBudget> budgets;
    private final Map<String, State> states = new ConcurrentHashMap<>();

    /** @param budgets calls per second allowed per tool; tools not named are not limited */
    public ToolGate(Map<String, ToolBudget> budgets) {
        this.budgets = Map.copyOf(budgets);
    }

    /**
     * Takes a call permit for {@code tool} if the gate is open.
     *
     * @return empty when the call may go ahead, else until when and why the gate is closed
     */
    public Optional<Closed> admit(String tool, Instant now) {
        return states.computeIfAbsent(tool, name -> new State(budgets.get(name), now)).admit(now);
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
        states.computeIfAbsent(tool, name -> new State(budgets.get(name), until)).pause(until, because);
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
