package dev.redrive.cli;

import dev.redrive.config.AccessRefusedException;
import dev.redrive.config.ConfigurationException;
import dev.redrive.config.PasswordRequiredException;
import dev.redrive.config.RedriveConfig;
import dev.redrive.config.ServiceUnavailableException;
import dev.redrive.config.UrlCredentials;
import dev.redrive.store.Database;
import dev.redrive.store.StoreException;
import dev.redrive.store.operation.RunEndedException;
import dev.redrive.triage.decision.DecisionRefusedException;
import dev.redrive.triage.decision.durable.BatchRefusedException;
import dev.redrive.triage.detail.UnknownEntryException;
import dev.redrive.triage.detail.UnknownOperationException;
import io.lettuce.core.RedisConnectionException;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Turns every failure an operator can act on into one line on stderr and the exit code of README's table: bad input
 * (2), a state that came first, as someone else's decision (3), an unreachable server (4), a refusal by the database
 * (5). The class of the failure decides, or its SQLState, never its message. Anything else is unexpected: its stack trace is printed and the exit code is 1. Bad input ends
 * with where to read the expected form, whether picocli or a command's own checks found it.
 */
final class FailureHandler implements IParameterExceptionHandler, IExecutionExceptionHandler {

    /** The line is the problem and where to read the expected form: {@code list: Unknown option: '--frm' (see ...)}. */
    @Override
    public int handleParseException(ParameterException error, String[] args) {
        CommandLine command = error.getCommandLine();
        String line = firstLine(error.getMessage());
        if (error instanceof UnmatchedArgumentException unmatched && !unmatched.getSuggestions().isEmpty()) {
            List<String> suggestions = unmatched.getSuggestions();
            line += "; did you mean " + String.join(" or ", suggestions.subList(0, Math.min(3, suggestions.size()))) + "?";
        }
        PrintWriter err = command.getErr();
        err.println(command.getCommandName() + ": " + line + helpHint(command));
        err.flush();
        return ExitCode.USAGE;
    }

    /** " (see redrive dlq list --help)". */
    private static String helpHint(CommandLine command) {
        return " (see " + command.getCommandSpec().qualifiedName(" ") + " --help)";
    }

    private final PasswordPrompt prompt;
    private boolean asked;

    FailureHandler(PasswordPrompt prompt) {
        this.prompt = prompt;
    }

    @Override
    public int handleExecutionException(Exception error, CommandLine command, ParseResult parseResult) throws Exception {
        Optional<String> typed = askedPassword(error, command);
        if (typed.isPresent()) {
            // Nothing happened before the connection was refused, so the command runs again from its start.
            connectionOptions(command).forEach(options -> options.typedPassword(typed.get()));
            try {
                return new CommandLine.RunLast().execute(parseResult);
            } catch (CommandLine.ExecutionException again) {
                return handleExecutionException(again.getCause() instanceof Exception cause ? cause : again, command,
                        parseResult);
            }
        }
        Failure failure = classify(error, command);
        if (failure == null) {
            throw error;
        }
        PrintWriter err = command.getErr();
        err.println(command.getCommandName() + ": " + failure.line());
        err.flush();
        return failure.exitCode();
    }

    private record Failure(int exitCode, String line) {
    }

    /** The password typed once the server asked for one that the settings did not give; asked once per run. */
    private Optional<String> askedPassword(Exception error, CommandLine command) {
        if (asked || causes(error).stream().noneMatch(PasswordRequiredException.class::isInstance)) {
            return Optional.empty();
        }
        List<ConnectionOptions> options = connectionOptions(command);
        if (options.isEmpty() || !options.get(0).passwordMissing()) {
            return Optional.empty();
        }
        asked = true;
        RedriveConfig config = options.get(0).config();
        return prompt.ask("PostgreSQL password for " + config.pgUser() + " at " + UrlCredentials.mask(config.pgUrl())
                + ": ");
    }

    /** The connection options of the command and of the commands before it, the command's first. */
    private static List<ConnectionOptions> connectionOptions(CommandLine command) {
        List<ConnectionOptions> found = new ArrayList<>();
        for (CommandLine.Model.CommandSpec spec = command.getCommandSpec(); spec != null; spec = spec.parent()) {
            for (CommandLine.Model.CommandSpec mixin : spec.mixins().values()) {
                if (mixin.userObject() instanceof ConnectionOptions options) {
                    found.add(options);
                }
            }
        }
        return found;
    }

    private static Failure classify(Exception error, CommandLine command) {
        if (error instanceof ConfigurationException || error instanceof IllegalArgumentException) {
            // An id of the right form that names nothing is not a matter of form: the help would not tell more.
            String hint = namesNothing(error) ? "" : helpHint(command);
            return new Failure(ExitCode.USAGE, firstLine(error.getMessage()) + hint);
        }
        // Libraries wrap what they met (Flyway an SQLException, a pool the driver's failure): the first known cause decides.
        for (Throwable cause : causes(error)) {
            if (cause instanceof ServiceUnavailableException || cause instanceof RedisConnectionException) {
                return new Failure(ExitCode.UNAVAILABLE, firstLine(cause.getMessage()));
            }
            if (cause instanceof DecisionRefusedException || cause instanceof RunEndedException) {
                return new Failure(ExitCode.BLOCKED, firstLine(cause.getMessage()));
            }
            if (cause instanceof AccessRefusedException || cause instanceof BatchRefusedException) {
                return new Failure(ExitCode.REFUSED, firstLine(cause.getMessage()));
            }
            StoreException store = cause instanceof StoreException s ? s
                    : cause instanceof SQLException sql ? StoreException.from(sql) : null;
            if (store != null) {
                return storeFailure(store, command);
            }
        }
        return null;
    }

    /** An unknown operation or DLQ entry, itself or as the cause of a line that adds to it. */
    private static boolean namesNothing(Throwable error) {
        return causes(error).stream().anyMatch(cause -> cause instanceof UnknownOperationException
                || cause instanceof UnknownEntryException);
    }

    /** The failure and its causes, outermost first. */
    private static List<Throwable> causes(Throwable error) {
        List<Throwable> causes = new ArrayList<>();
        for (Throwable cause = error; cause != null && !causes.contains(cause); cause = cause.getCause()) {
            causes.add(cause);
        }
        return causes;
    }

    private static Failure storeFailure(StoreException error, CommandLine command) {
        String said = firstLine(error.getMessage());
        if (error.isRefused()) {
            return new Failure(ExitCode.REFUSED, "refused by the database: " + said);
        }
        if (error.isConnectionFailure()) {
            return new Failure(ExitCode.UNAVAILABLE, "PostgreSQL connection failed: " + said);
        }
        if (error.isSchemaMissing()) {
            return schemaMissing(said, command);
        }
        return new Failure(ExitCode.UNEXPECTED, "the operation store failed: " + said);
    }

    /**
     * A statement found no table: the namespace was never migrated, or not to this version, or the login may not use
     * its schema (PostgreSQL then hides the schema's tables, and running migrate would not help).
     */
    private static Failure schemaMissing(String said, CommandLine command) {
        RedriveConfig config = connection(command);
        if (config == null) {
            return new Failure(ExitCode.USAGE, "no Redrive schema: " + said + "; run `redrive migrate`");
        }
        String namespace = config.namespace();
        String migrate = "; run `redrive migrate -n " + namespace + "`";
        Database.SchemaPresence presence;
        String viewerRole;
        try (Database database = Database.open(config, 1)) {
            presence = database.schemaPresence();
            viewerRole = database.viewerRole();
        } catch (RuntimeException probeFailed) {
            presence = Database.SchemaPresence.MISSING;
            viewerRole = null;
        }
        return switch (presence) {
            case MISSING -> new Failure(ExitCode.USAGE, "namespace " + namespace + " has no Redrive schema" + migrate);
            case NOT_USABLE -> new Failure(ExitCode.REFUSED, "refused by the database: user " + config.pgUser()
                    + " may not use namespace " + namespace + " (no USAGE on its schema; a login that may look is a member of "
                    + viewerRole + ")");
            case PRESENT -> new Failure(ExitCode.USAGE, "namespace " + namespace
                    + " is not migrated to this version (" + said + ")" + migrate);
        };
    }

    /** The connection the failed command used, as its options (given before or after it) name it. */
    private static RedriveConfig connection(CommandLine command) {
        List<ConnectionOptions> options = connectionOptions(command);
        if (options.isEmpty()) {
            return null;
        }
        try {
            return options.get(0).config();
        } catch (ConfigurationException e) {
            return null;
        }
    }

    private static String firstLine(String message) {
        return message == null ? "" : message.lines().map(String::strip).filter(line -> !line.isEmpty()).findFirst().orElse("");
    }
}
