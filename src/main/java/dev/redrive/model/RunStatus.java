package dev.redrive.model;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/** A run's status, owned by the workflow runtime; only RUNNING lets its operations execute. */
public enum RunStatus {
    RUNNING, CANCELLED, SUCCEEDED, FAILED;

    private static final Map<RunStatus, Set<RunStatus>> TRANSITIONS = Map.of(
            RUNNING, EnumSet.of(CANCELLED, SUCCEEDED, FAILED),
            CANCELLED, EnumSet.noneOf(RunStatus.class),
            SUCCEEDED, EnumSet.noneOf(RunStatus.class),
            FAILED, EnumSet.noneOf(RunStatus.class));

    public boolean canBecome(RunStatus next) {
        return TRANSITIONS.get(this).contains(next);
    }

    public boolean isTerminal() {
        return this != RUNNING;
    }

    public static String[] allowedBefore(RunStatus next) {
        return EnumSet.allOf(RunStatus.class).stream()
                .filter(status -> status.canBecome(next))
                .map(Enum::name)
                .toArray(String[]::new);
    }

    public void checkTransition(RunStatus next) {
        if (!canBecome(next)) {
            throw new IllegalStateTransitionException("run", name(), next.name());
        }
    }
}
