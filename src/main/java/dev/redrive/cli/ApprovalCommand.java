package dev.redrive.cli;

import dev.redrive.store.Database;
import dev.redrive.store.approval.ApprovalStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

@Command(name = "approval", mixinStandardHelpOptions = true,
        description = "Grant or revoke the approvals dispatches name (checked by redrive precondition 3).",
        subcommands = {ApprovalCommand.Grant.class, ApprovalCommand.Revoke.class})
final class ApprovalCommand {

    @Command(name = "grant", mixinStandardHelpOptions = true, description = "Grant a new approval.")
    static final class Grant extends NamespaceCommand {
        @Parameters(index = "0", paramLabel = "ID", description = "approval id")
        String approvalId;

        @Option(names = "--scope", required = true, paramLabel = "S", description = "what it allows, e.g. charges<=500")
        String scope;

        @Option(names = "--expires-at", paramLabel = "ISO", description = "when it expires, e.g. 2026-12-31T00:00:00Z")
        String expiresAt;

        @Mixin
        ByOption grantedBy;

        @Override
        public Integer call() {
            Instant expires = expiresAt == null ? null : parseInstant(expiresAt);
            try (Database database = Database.open(connection.config(), 2)) {
                new ApprovalStore(database.jdbc()).grant(approvalId, scope, grantedBy.name, expires, Instant.now());
                spec.commandLine().getOut().printf("approval %s granted by %s for %s%s%n", approvalId, grantedBy.name,
                        scope, expires == null ? ", no expiry" : ", expires " + expires);
                return 0;
            }
        }
    }

    @Command(name = "revoke", mixinStandardHelpOptions = true, description = "Revoke an approval.")
    static final class Revoke extends NamespaceCommand {
        @Parameters(index = "0", paramLabel = "ID", description = "approval id")
        String approvalId;

        @Option(names = "--reason", paramLabel = "TEXT", defaultValue = "revoked from the command line",
                description = "why (default: ${DEFAULT-VALUE})")
        String reason;

        @Mixin
        ByOption revokedBy;

        @Override
        public Integer call() {
            try (Database database = Database.open(connection.config(), 2)) {
                new ApprovalStore(database.jdbc()).revoke(approvalId, revokedBy.name, reason, Instant.now());
                spec.commandLine().getOut().printf("approval %s revoked by %s: %s%n", approvalId, revokedBy.name,
                        reason);
                return 0;
            }
        }
    }

    static Instant parseInstant(String text) {
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("--expires-at must be an ISO-8601 date-time with offset, e.g. "
                    + "2026-12-31T00:00:00Z, got '" + text + "'");
        }
    }
}
