package dev.redrive.store.operation;

import dev.redrive.model.FailureClass;

import java.util.Objects;

/** A failure as the store keeps it: its class (a type, never derived from text), a short code and the message. */
public record AttemptError(FailureClass failureClass, String code, String message) {
    public AttemptError {
        Objects.requireNonNull(failureClass, "failureClass");
        message = message == null || message.isBlank() ? failureClass.name() : message;
    }
}
