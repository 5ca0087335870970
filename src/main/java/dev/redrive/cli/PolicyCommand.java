package dev.redrive.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.model.TypedDuration;
import dev.redrive.store.Database;
import dev.redrive.store.deadletter.RetentionPolicy;
import dev.redrive.store.deadletter.RetentionPolicyStore;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.triage.request.FourEyesPolicy;
import dev.redrive.triage.request.PolicyStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

@Command(name = "policy", mixinStandardHelpOptions = true,
        description = "The namespace's policies: four-eyes (which decisions wait for a second operator's approval) and "
                + "retention (how long decided DLQ entries keep their evidence).",
        subcommands = {PolicyCommand.FourEyes.class, PolicyCommand.Retention.class, PolicyCommand.Show.class})
final class PolicyCommand {

    @Command(name = "four-eyes", mixinStandardHelpOptions = true,
            description = {"Switch four-eyes on or off (audited; only the schema owner may). On without rules, every "
                    + "decision becomes a request; with rules, a decision does when any rule covers it.",
                    "Covered decisions are recorded as requests (exit 6) that another operator approves with request "
                            + "approve ID, or rejects."})
    static final class FourEyes extends NamespaceCommand {
        @Parameters(index = "0", paramLabel = "on|off", description = "on or off")
        String state;

        @Option(names = "--batch-over", paramLabel = "N",
                description = "a decision on more than N items (a batch, a group, a filter) waits for approval")
        Integer batchOver;

        @Option(names = "--corrections", description = "every correct-and-redrive waits for approval")
        boolean corrections;

        @Option(names = "--tools", paramLabel = "T", split = ",",
                description = "a redrive, resolve or discard of an operation of these tools waits for approval")
        List<String> tools = new ArrayList<>();

        @Option(names = "--expire-after", paramLabel = "DURATION",
                description = "a request not decided within this time expires: 30m, 24h, 7d or ISO-8601 (PT24H); "
                        + "default 24h")
        String expireAfter;

        @Mixin
        RequiredOperatorOption operator;

        @Override
        public Integer call() {
            boolean on = switch (state.toLowerCase(Locale.ROOT)) {
                case "on" -> true;
                case "off" -> false;
                default -> throw new IllegalArgumentException("four-eyes takes on or off, got '" + state + "'");
            };
            if (!on && (batchOver != null || corrections || !tools.isEmpty() || expireAfter != null)) {
                throw new IllegalArgumentException("policy four-eyes off takes no rules (--batch-over, --corrections, "
                        + "--tools, --expire-after); give them with on");
            }
            // Dropping an empty name would leave a policy that covers every decision instead of some tools.
            if (tools.stream().anyMatch(String::isBlank)) {
                throw new IllegalArgumentException("--tools takes tool names separated by commas, got an empty name; "
                        + "to cover every decision, switch four-eyes on without --tools");
            }
            FourEyesPolicy policy = FourEyesPolicy.of(on, batchOver, corrections, tools.stream().map(String::strip).toList(),
                    expireAfter == null ? null : parseDuration(expireAfter, "--expire-after"));
            try (Database database = Database.open(connection.config(), 2)) {
                FourEyesPolicy written = new PolicyStore(database).write(policy, operator.name(),
                        Instant.now());
                PrintWriter out = spec.commandLine().getOut();
                out.println(written.describe() + " (changed by " + written.changedBy() + ", login "
                        + written.changedLogin() + ")");
                out.flush();
                return ExitCode.OK;
            }
        }
    }

    @Command(name = "retention", mixinStandardHelpOptions = true,
            description = {"How long decided DLQ entries keep their evidence (raw message, payload, attempt and "
                    + "delivery history) before a worker purges it, as dlq purge would; off keeps it until someone "
                    + "runs dlq purge. Open entries always keep theirs. Audited; only the schema owner may."})
    static final class Retention extends NamespaceCommand {
        @Parameters(index = "0", paramLabel = "KEEP|off",
                description = "how long after its decision an entry keeps its evidence: 90d, 24h, 30m or ISO-8601 "
                        + "(P90D); or off")
        String keep;

        @Mixin
        RequiredOperatorOption operator;

        @Override
        public Integer call() {
            RetentionPolicy policy = keep.strip().equalsIgnoreCase("off") ? RetentionPolicy.OFF
                    : RetentionPolicy.keeping(parseDuration(keep, "retention"));
            try (Database database = Database.open(connection.config(), 2)) {
                RetentionPolicy written = new RetentionPolicyStore(database.jdbc()).write(policy,
                        operator.name(), Instant.now());
                PrintWriter out = spec.commandLine().getOut();
                out.println(written.describe() + " (changed by " + written.changedBy() + ", login "
                        + written.changedLogin() + ")");
                out.flush();
                return ExitCode.OK;
            }
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "Print the four-eyes and retention policies.")
    static final class Show extends NamespaceCommand {
        @Mixin
        JsonOption json;

        @Override
        public Integer call() {
            try (Database database = Database.open(connection.config(), 2)) {
                FourEyesPolicy policy = new PolicyStore(database).read();
                RetentionPolicy retention = new RetentionPolicyStore(database.jdbc()).read();
                PrintWriter out = spec.commandLine().getOut();
                if (json.on()) {
                    // The four-eyes policy's fields stay where scripts read them; retention is added beside them.
                    ObjectNode root = TriageJson.mapper().valueToTree(policy);
                    root.set("retention", TriageJson.mapper().valueToTree(retention));
                    out.println(TriageJson.write(root));
                } else {
                    out.println(policy.describe() + changed(policy.changedBy(), policy.changedLogin(),
                            policy.changedAt()));
                    out.println(retention.describe() + changed(retention.changedBy(), retention.changedLogin(),
                            retention.changedAt()));
                }
                out.flush();
                return ExitCode.OK;
            }
        }
    }

    private static String changed(String by, String login, Instant at) {
        return at == null ? "" : " (changed by " + by + ", login " + login + ", at " + at + ")";
    }

    /** 30m, 24h, 7d, 90s, or ISO-8601 (PT24H, P7D); a line naming {@code what} when the text is none of those. */
    static Duration parseDuration(String text, String what) {
        Duration duration;
        try {
            duration = TypedDuration.parse(text);
        } catch (IllegalArgumentException e) {
            duration = null;
        }
        if (duration == null || duration.toSeconds() < 1) {
            throw new IllegalArgumentException(what + " must be a positive duration such as 30m, 24h, 7d or "
                    + "PT24H, got '" + text + "'");
        }
        return duration;
    }
}
