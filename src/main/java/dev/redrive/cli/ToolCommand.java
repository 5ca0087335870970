package dev.redrive.cli;

import dev.redrive.identity.OperationId;
import dev.redrive.store.Database;
import dev.redrive.store.tool.ToolSchemaStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.time.Instant;

@Command(name = "tool", mixinStandardHelpOptions = true, description = "Manage tools as redrive preconditions see them.",
        subcommands = ToolCommand.Schema.class)
final class ToolCommand {

    @Command(name = "schema", mixinStandardHelpOptions = true, description = "Tool schema versions.",
            subcommands = ToolCommand.SetVersion.class)
    static final class Schema {
    }

    @Command(name = "set", mixinStandardHelpOptions = true,
            description = "Make VERSION the tool's current schema version; the previous one stays in the history.")
    static final class SetVersion extends NamespaceCommand {
        @Parameters(index = "0", paramLabel = "TOOL", description = "tool name, e.g. demo.charge")
        String tool;

        @Parameters(index = "1", paramLabel = "VERSION", description = "schema version, e.g. 2")
        String version;

        @Mixin
        ByOption actor;

        @Override
        public Integer call() {
            OperationId.requireId("tool", tool);
            if (version.isBlank()) {
                throw new IllegalArgumentException("VERSION must not be empty");
            }
            try (Database database = Database.open(connection.config(), 2)) {
                ToolSchemaStore schemas = new ToolSchemaStore(database.jdbc());
                String previous = schemas.current(tool).orElse(null);
                boolean changed = schemas.register(tool, version, actor.name, Instant.now());
                spec.commandLine().getOut().println(changed
                        ? tool + " schema version is now " + version + (previous == null ? "" : " (was " + previous + ")")
                        : tool + " schema version already is " + version);
                return 0;
            }
        }
    }
}
