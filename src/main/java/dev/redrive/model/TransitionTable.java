package dev.redrive.model;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The allowed changes of one kind of status, kept once for the enum that names them: what may follow what, the guard
 * an UPDATE puts in its WHERE clause, and the refusal of anything else.
 */
final class TransitionTable<S extends Enum<S>> {
    private final String what;
    private final Class<S> type;
    private final Map<S, Set<S>> next;

    /** @param what how the refusal names the thing whose status it is ("operation", "run") */
    TransitionTable(String what, Class<S> type, Map<S, Set<S>> next) {
        this.what = what;
        this.type = type;
        this.next = next;
    }

    Set<S> allowedNext(S from) {
        return next.get(from);
    }

    boolean allows(S from, S to) {
        return next.get(from).contains(to);
    }

    /** Every status that may change into {@code to}, by name. */
    String[] allowedBefore(S to) {
        return EnumSet.allOf(type).stream()
                .filter(status -> allows(status, to))
                .map(Enum::name)
                .toArray(String[]::new);
    }

    /** Throws when a change is not in the table; the message names both states. */
    void check(S from, S to) {
        if (!allows(from, to)) {
            throw new IllegalStateTransitionException(what, from.name(), to.name());
        }
    }
}
