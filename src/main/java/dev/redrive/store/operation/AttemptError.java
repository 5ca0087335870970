package dev.redrive.store.operation;

import dev.redrive.model.FailureClass;
import dev.redrive.store.StorableText;

import java.util.Objects;

/**
 * A failure as the store keeps it: its class (a type, never derived from text), a short code and the message, made
 * storable whatever a tool put in it.
 */
public record AttemptError(FailureClass failureClass, String code, String message) {
    public AttemptError {
        Objects.requireNonNull(failureClass, "failureClass");
        code = StorableText.of(code);
        message = message == null || message.isBlank() ? failureClass.name() : StorableText.of(message);
    }
}
