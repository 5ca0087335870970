package dev.redrive.cli;

import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.request.ApprovalResult;
import dev.redrive.triage.request.DecisionRequest;
import dev.redrive.triage.request.DecisionRequests;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

@Command(name = "request", mixinStandardHelpOptions = true,
        description = "Four-eyes requests: decisions the policy covers, waiting for a second operator's approval.",
        subcommands = {RequestCommand.ListRequests.class, RequestCommand.Approve.class, RequestCommand.Reject.class})
final class RequestCommand {
    /** How many requests list --all shows, newest first. */
    static final int ALL_LIMIT = 500;

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "The requests waiting for approval, oldest first; --all: every request, newest first.")
    static final class ListRequests extends NamespaceCommand {
        @Option(names = "--all", description = "also approved, rejected, expired and obsolete requests (the newest "
                + ALL_LIMIT + ")")
        boolean all;

        @Mixin
        JsonOption json;

        @Override
        public Integer call() {
            try (TriageSession session = new TriageSession(connection)) {
                List<DecisionRequest> requests = all ? session.requests().newest(ALL_LIMIT)
                        : session.requests().pending();
                PrintWriter out = spec.commandLine().getOut();
                if (json.on()) {
                    DecisionPrinter.json(out, requests);
                } else if (requests.isEmpty()) {
                    out.println(all ? "no requests" : "no request waits for approval");
                } else {
                    requests.forEach(request -> print(out, request));
                }
                out.flush();
                return ExitCode.OK;
            }
        }
    }

    @Command(name = "approve", mixinStandardHelpOptions = true,
            description = {"Approve a request and take its decision: every precondition is checked again, then the "
                    + "decision is taken exactly as a direct one, under your name and login.",
                    "Refused (exit 5) for the login that asked for it, and for a viewer; exit 3 when a precondition "
                            + "fails now (the request stays pending), when it expired or was decided already, or is "
                            + "obsolete (another path decided its items)."})
    static final class Approve extends Settle {
        @Override
        ApprovalResult settle(DecisionRequests requests) {
            return requests.approve(id, operator.name());
        }
    }

    @Command(name = "reject", mixinStandardHelpOptions = true,
            description = "Reject a request: its decision is never taken. The one who asked may withdraw her own so.")
    static final class Reject extends Settle {
        @Option(names = "--reason", required = true, paramLabel = "TEXT", description = "why")
        String reason;

        @Override
        ApprovalResult settle(DecisionRequests requests) {
            return requests.reject(id, operator.name(), reason);
        }
    }

    /** Approve or reject: one request, settled under the operator's name, the result printed as text or JSON. */
    abstract static class Settle extends NamespaceCommand {
        @Parameters(index = "0", paramLabel = "ID", description = "the request's id (request list)")
        long id;

        @Mixin
        RequiredOperatorOption operator;

        @Mixin
        JsonOption json;

        abstract ApprovalResult settle(DecisionRequests requests);

        @Override
        public Integer call() {
            try (TriageSession session = new TriageSession(connection)) {
                return print(spec.commandLine().getOut(), settle(session.requests()), json.on());
            }
        }
    }

    /** Three lines: what it asks for; who asked, when, until when and why it waits; the reason (and the decision). */
    private static void print(PrintWriter out, DecisionRequest request) {
        out.printf("%d  %s  %s%n", request.id(), request.state(), request.summary());
        out.printf("    asked by %s (login %s) at %s, expires %s; %s%n", request.requestedBy(),
                request.requestedLogin(), request.requestedAt(), request.expiresAt(), request.coveredBy());
        out.printf("    reason: %s%n", Cells.cut(request.reason(), 200));
        switch (request.state()) {
            case APPROVED, REJECTED -> out.printf("    %s by %s (login %s) at %s%s%n",
                    request.state().name().toLowerCase(Locale.ROOT), request.decidedBy(), request.decidedLogin(),
                    request.decidedAt(), request.rejectReason() == null ? "" : ": " + Cells.cut(request.rejectReason(), 200));
            case OBSOLETE -> out.printf("    obsolete: none of its items is open any more (another path decided them)%n");
            case PENDING, EXPIRED -> {
                // Nobody decided it: the first line says all.
            }
        }
    }

    private static int print(PrintWriter out, ApprovalResult result, boolean json) {
        if (json) {
            DecisionPrinter.json(out, result);
        } else {
            out.println(DecisionPrinter.line("request " + result.requestId(), result.outcome(), result.message()));
            if (result.items().size() > 1) {
                for (DecisionResult item : result.items()) {
                    DecisionPrinter.print(out, item, false);
                }
            } else {
                result.items().stream().filter(item -> item.preconditions() != null && !item.recorded())
                        .flatMap(item -> item.preconditions().failed().stream())
                        .forEach(check -> out.println("  " + check.line()));
            }
        }
        out.flush();
        return DecisionPrinter.exitCode(result.outcomes());
    }
}
