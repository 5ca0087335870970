package dev.redrive.cli;

import dev.redrive.store.Database;
import dev.redrive.store.operation.RunStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.time.Instant;

@Command(name = "run", mixinStandardHelpOptions = true, description = "Change a run on behalf of the workflow runtime.",
        subcommands = RunCommand.Cancel.class)
final class RunCommand {

    @Command(name = "cancel", mixinStandardHelpOptions = true,
            description = "Mark a run cancelled: its waiting operations are cancelled, and no dispatch or redrive of it runs again.")
    static final class Cancel extends NamespaceCommand {
        @Parameters(index = "0", paramLabel = "RUN", description = "run id")
        String runId;

        @Option(names = "--reason", paramLabel = "TEXT", defaultValue = "cancelled from the command line",
                description = "why (default: ${DEFAULT-VALUE})")
        String reason;

        @Mixin
        ByOption actor;

        @Override
        public Integer call() {
            try (Database database = Database.open(connection.config(), 2)) {
                int operations = new RunStore(database.jdbc()).cancel(runId, reason, actor.name, Instant.now());
                spec.commandLine().getOut().printf("run %s cancelled; %d waiting operation(s) cancelled with it%n",
                        runId, operations);
                return 0;
            }
        }
    }
}
