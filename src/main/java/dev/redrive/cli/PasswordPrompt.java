package dev.redrive.cli;

import java.io.Console;
import java.util.Optional;

/**
 * Asks for the PostgreSQL password once the server asked for one and the settings gave none; see
 * {@link FailureHandler}. Without a terminal nobody can answer, and the command fails with the line that says where a
 * password may come from.
 */
@FunctionalInterface
interface PasswordPrompt {
    /** The password typed (not echoed), or empty when there is no terminal to ask at. */
    Optional<String> ask(String question);

    PasswordPrompt TERMINAL = question -> {
        Console console = System.console();
        char[] typed = console == null ? null : console.readPassword("%s", question);
        return typed == null ? Optional.empty() : Optional.of(new String(typed));
    };
}
