package dev.redrive.model;

/** A state change that the transition table does not allow. */
public class IllegalStateTransitionException extends IllegalStateException {
    public IllegalStateTransitionException(String what, String from, String to) {
        super(what + " cannot go from " + from + " to " + to);
    }
}
