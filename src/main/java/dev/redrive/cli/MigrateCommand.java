package dev.redrive.cli;

import dev.redrive.store.Database;
import org.flywaydb.core.api.output.MigrateResult;
import picocli.CommandLine.Command;

@Command(name = "migrate", mixinStandardHelpOptions = true,
        description = "Create or upgrade the namespace's schema. Safe to run again: an up-to-date schema is left as it is.")
final class MigrateCommand extends NamespaceCommand {
    @Override
    public Integer call() {
        try (Database database = Database.open(connection.config(), 2)) {
            MigrateResult result = database.migrate();
            String version = result.targetSchemaVersion != null ? result.targetSchemaVersion : result.initialSchemaVersion;
            spec.commandLine().getOut().printf("schema %s: %d migration(s) applied, now at version %s%n",
                    database.schema(), result.migrationsExecuted, version);
            return 0;
        }
    }
}
