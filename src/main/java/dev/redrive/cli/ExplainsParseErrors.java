package dev.redrive.cli;

import picocli.CommandLine.ParameterException;

import java.util.Optional;

/**
 * A command that can name what is wrong in its own words where picocli's message is generic (two exclusive groups of
 * options read as "mutually exclusive" or "missing" options the operator never meant to give).
 */
interface ExplainsParseErrors {
    /** The line for {@code error}, or empty to keep picocli's. */
    Optional<String> explain(ParameterException error, String[] args);
}
