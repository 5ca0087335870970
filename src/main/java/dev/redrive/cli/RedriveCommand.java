package dev.redrive.cli;

import dev.redrive.RuntimeVersion;
import dev.redrive.config.ConfigurationException;
import dev.redrive.config.ServiceUnavailableException;
import dev.redrive.identity.InvalidIdException;
import dev.redrive.store.StoreException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The command tree of DESIGN.md's command table. With no command it opens the console. */
@Command(name = "redrive",
        mixinStandardHelpOptions = true,
        versionProvider = RedriveCommand.Version.class,
        description = "Dead-letter triage: find out why work failed, whether it changed the world, and re-run it safely.",
        subcommands = {
                ConsoleCommand.class,
                MigrateCommand.class,
                WorkerCommand.class,
                DispatchCommand.class,
                RunCommand.class,
                ToolCommand.class,
                ApprovalCommand.class,
                BenchCommand.class,
                OpCommand.class,
                DlqCommand.class,
                RedriveOperationsCommand.class,
                ResolveCommand.class,
                DiscardCommand.class,
                ReconcileCommand.class,
                ReportCommand.class,
                DemoCommand.class,
                CommandLine.HelpCommand.class
        })
public final class RedriveCommand implements Runnable {

    /** Exit code when the input or the configuration is wrong. */
    public static final int EXIT_USAGE = 2;
    /** Exit code when a redrive is blocked by a failed precondition. */
    public static final int EXIT_BLOCKED = 3;
    /** Exit code when PostgreSQL or Redis cannot be reached. */
    public static final int EXIT_UNAVAILABLE = 4;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().getSubcommands().get("console").execute();
    }

    public static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new RedriveCommand());
        commandLine.setExecutionExceptionHandler(RedriveCommand::handle);
        return commandLine;
    }

    /** Turns the failures an operator can act on into one line on stderr instead of a stack trace. */
    private static int handle(Exception error, CommandLine commandLine, CommandLine.ParseResult parseResult) {
        String name = commandLine.getCommandName();
        if (error instanceof ServiceUnavailableException) {
            commandLine.getErr().println(name + ": " + error.getMessage());
            return EXIT_UNAVAILABLE;
        }
        if (error instanceof ConfigurationException || error instanceof InvalidIdException
                || error instanceof IllegalArgumentException) {
            commandLine.getErr().println(name + ": " + error.getMessage());
            return EXIT_USAGE;
        }
        if (error instanceof StoreException) {
            commandLine.getErr().println(name + ": the operation store refused: " + error.getMessage().lines().findFirst().orElse(""));
            return 1;
        }
        throw new IllegalStateException(error);
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[]{"redrive " + RuntimeVersion.current()};
        }
    }
}
