package dev.redrive.model;

import java.util.EnumSet;
import java.util.Map;

/** A run's status, owned by the workflow runtime; only RUNNING lets its operations execute. */
public enum RunStatus {
    RUNNING, CANCELLED, SUCCEEDED, FAILED;

    private static final TransitionTable<RunStatus> TRANSITIONS = new TransitionTable<>("run", RunStatus.class, Map.of(
            RUNNING, EnumSet.of(CANCELLED, SUCCEEDED, FAILED),
            CANCELLED, EnumSet.noneOf(RunStatus.class),
            SUCCEEDED, EnumSet.noneOf(RunStatus.class),
            FAILED, EnumSet.noneOf(RunStatus.class)));

    public boolean canBecome(RunStatus next) {
        return TRANSITIONS.allows(this, next);
    }

    public boolean isTerminal() {
        return this != RUNNING;
    }

    public static String[] allowedBefore(RunStatus next) {
        return TRANSITIONS.allowedBefore(next);
    }

    public void checkTransition(RunStatus next) {
        TRANSITIONS.check(this, next);
    }
}
