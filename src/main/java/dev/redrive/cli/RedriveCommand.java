package dev.redrive.cli;

import dev.redrive.RuntimeVersion;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * The command tree of README's command table. With no command it opens the console. The connection options may come
 * before the command as well as after it; the exit codes are the table below, which {@code --help} prints too.
 */
@Command(name = "redrive",
        mixinStandardHelpOptions = true,
        versionProvider = RedriveCommand.Version.class,
        description = {"Dead-letter triage: find out why work failed, whether it changed the world, and re-run it safely.",
                "The connection options below go before the command or after it (after it wins)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
                "0:done, or a dry run in which every check passes",
                "1:unexpected failure, or a redrive recorded whose dispatch could not be published (a worker's sweep "
                        + "publishes it)",
                "2:bad input: an option, a value, an id, or a namespace that was never migrated",
                "3:blocked or conflict: a failed redrive precondition, an entry someone else decided, an idempotency conflict",
                "4:PostgreSQL or Redis is not reachable",
                "5:refused by the database: a viewer's decision, a login or privilege it does not grant, an approval by "
                        + "the login that asked for it",
                "6:waits for approval: the four-eyes policy covers the decision, so a request was recorded instead "
                        + "(request approve ID)",
                "7:stopped: a batch was stopped before it took every item (batch resume ID goes on with it)"},
        subcommands = {
                ConsoleCommand.class,
                MigrateCommand.class,
                WorkerCommand.class,
                DispatchCommand.class,
                RunCommand.class,
                ToolCommand.class,
                ApprovalCommand.class,
                PolicyCommand.class,
                RequestCommand.class,
                BenchCommand.class,
                OpCommand.class,
                DlqCommand.class,
                RedriveOperationsCommand.class,
                BatchCommand.class,
                ResolveCommand.class,
                DiscardCommand.class,
                ReconcileCommand.class,
                ReportCommand.class,
                DemoCommand.class,
                CommandLine.HelpCommand.class
        })
public final class RedriveCommand implements Runnable {

    @Mixin
    ConnectionOptions connection;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().getSubcommands().get("console").execute();
    }

    public static CommandLine commandLine() {
        return commandLine(PasswordPrompt.TERMINAL);
    }

    static CommandLine commandLine(PasswordPrompt prompt) {
        FailureHandler failures = new FailureHandler(prompt);
        CommandLine commandLine = new CommandLine(new RedriveCommand());
        commandLine.setCaseInsensitiveEnumValuesAllowed(true);
        NumberInput.register(commandLine);
        // The namespace `redrive` (the default) is also a command's name; before the command it is still a value.
        commandLine.setAllowSubcommandsAsOptionParameters(true);
        commandLine.setParameterExceptionHandler(failures);
        commandLine.setExecutionExceptionHandler(failures);
        return commandLine;
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[]{"redrive " + RuntimeVersion.current()};
        }
    }
}
