package dev.redrive.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.testing.DatabaseLogin;
import dev.redrive.testing.LoginsFixture;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.DeadLetterFixture.Created;
import dev.redrive.triage.json.TriageJson;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * policy four-eyes, and request list / approve / reject, as operators type them: alice's covered decisions become
 * requests (exit 6), bob approves or rejects them; the schema owner, whom everyone shares in the sandbox, is told apart
 * by the typed names.
 */
class FourEyesCliTest {
    static final TestNamespace ns = new TestNamespace();
    @RegisterExtension
    static final LoginsFixture logins = new LoginsFixture(ns);

    private static final Pattern REQUEST_ID = Pattern.compile("request (\\d+) waits for a second operator's approval");
    private static DatabaseLogin alice;
    private static DatabaseLogin bob;
    private static int node;

    @BeforeAll
    static void start() {
        logins.deadLetters().toolSchema("demo.ship", "2");
        alice = logins.operator("alice");
        bob = logins.operator("bob");
    }

    private static CliRun as(DatabaseLogin login, String... args) {
        return CliRun.as(login, ns, args);
    }

    private static long requestId(CliRun run) {
        Matcher matcher = REQUEST_ID.matcher(run.out());
        assertThat(matcher.find()).as(run.out() + run.err()).isTrue();
        return Long.parseLong(matcher.group(1));
    }

    private static Created deadLettered() {
        return logins.deadLetters().deadLettered("run-cli-four-eyes", "charge-" + node++).create();
    }

    private static String decision(Created op) {
        return logins.admin().queryOne("SELECT decision_state FROM dlq_entries WHERE id = ?", row -> row.getString(1),
                op.dlqEntryId()).orElseThrow();
    }

    @Test
    void aliceAsks_herOwnApprovalIsRefused_bobApproves_andTheRedriveIsIssued() {
        CliRun on = CliRun.in(ns, "policy", "four-eyes", "on", "--tools", "demo.charge,demo.ship",
                "--expire-after", "2h", "--operator", "carol");
        assertThat(on.exit()).as(on.err()).isZero();
        assertThat(on.out()).contains("four-eyes on: tools demo.charge, demo.ship; requests expire after 2h");
        assertThat(CliRun.in(ns, "policy", "show", "--json").out()).contains("\"enabled\" : true", "demo.charge");
        Created op = deadLettered();

        CliRun asked = as(alice, "redrive", op.operationId(), "--reason", "ledger is back", "--operator", "alice");
        long id = requestId(asked);
        CliRun listed = as(bob, "request", "list");
        CliRun own = as(alice, "request", "approve", String.valueOf(id), "--operator", "bob");
        CliRun approved = as(bob, "request", "approve", String.valueOf(id), "--operator", "bob");
        CliRun again = as(bob, "request", "approve", String.valueOf(id), "--operator", "bob");

        assertThat(asked.exit()).isEqualTo(ExitCode.WAITS_FOR_APPROVAL);
        assertThat(asked.out()).contains("four-eyes covers tool demo.charge", "request approve " + id);
        assertThat(listed.out()).contains("PENDING", "redrive of operation " + op.operationId(),
                "asked by alice (login " + alice.login() + ")");
        assertThat(own.exit()).isEqualTo(ExitCode.REFUSED);
        assertThat(own.out()).contains("a second operator must approve it");
        assertThat(approved.exit()).as(approved.out() + approved.err()).isZero();
        assertThat(approved.out()).contains("DONE", "redrive command");
        assertThat(again.exit()).isEqualTo(ExitCode.BLOCKED);
        assertThat(decision(op)).isEqualTo("REDRIVEN");
        assertThat(as(bob, "request", "list", "--all", "--json").out()).contains("\"state\" : \"APPROVED\"",
                "\"decided_login\" : \"" + bob.login() + "\"");
    }

    @Test
    void aDiscardAskedFor_isRejected_andTheEntryStaysOpen() {
        CliRun.in(ns, "policy", "four-eyes", "on", "--operator", "carol");
        Created op = deadLettered();

        CliRun asked = as(alice, "discard", op.operationId(), "--reason", "duplicate", "--operator", "alice");
        long id = requestId(asked);
        CliRun rejected = as(bob, "request", "reject", String.valueOf(id), "--reason", "not a duplicate",
                "--operator", "bob");

        assertThat(asked.exit()).isEqualTo(ExitCode.WAITS_FOR_APPROVAL);
        assertThat(rejected.exit()).as(rejected.out() + rejected.err()).isZero();
        assertThat(rejected.out()).contains("rejected by bob");
        assertThat(decision(op)).isEqualTo("OPEN");
        assertThat(as(bob, "request", "approve", String.valueOf(id), "--operator", "bob").exit())
                .isEqualTo(ExitCode.BLOCKED);
    }

    @Test
    void theSameDecisionAskedTwice_isOneRequest_andAskingAgainAfterARejectionIsANewOne() {
        CliRun.in(ns, "policy", "four-eyes", "on", "--operator", "carol");
        Created op = deadLettered();

        CliRun first = as(alice, "discard", op.operationId(), "--reason", "duplicate", "--operator", "alice");
        CliRun again = as(alice, "discard", op.operationId(), "--reason", "duplicate, really", "--operator", "alice");
        CliRun otherKind = as(alice, "resolve", op.operationId(), "--reason", "paid by hand", "--result", "{\"ok\":true}",
                "--operator", "alice");

        long id = requestId(first);
        assertThat(again.exit()).isEqualTo(ExitCode.WAITS_FOR_APPROVAL);
        assertThat(again.out()).startsWith("request " + id + " already waits for a second operator's approval of this "
                + "decision (asked by alice at ").contains("redrive request approve " + id);
        assertThat(requestId(otherKind)).isNotEqualTo(id);
        assertThat(ns.database().jdbc().queryLong("SELECT count(*) FROM decision_requests WHERE kind = 'DISCARD' "
                + "AND state = 'PENDING'")).isEqualTo(1);

        as(bob, "request", "reject", String.valueOf(id), "--reason", "not a duplicate", "--operator", "bob");
        assertThat(requestId(as(alice, "discard", op.operationId(), "--reason", "duplicate", "--operator", "alice")))
                .isNotEqualTo(id);
    }

    @Test
    void aRequestWhoseEntryAnotherPathDecided_readsObsolete_leavesTheWaitingList_andIsNotApproved() {
        CliRun.in(ns, "policy", "four-eyes", "on", "--operator", "carol");
        Created op = deadLettered();
        long id = requestId(as(alice, "discard", op.operationId(), "--reason", "duplicate", "--operator", "alice"));
        CliRun.in(ns, "policy", "four-eyes", "off", "--operator", "carol");
        CliRun direct = as(bob, "discard", op.operationId(), "--reason", "duplicate indeed", "--operator", "bob");
        assertThat(direct.exit()).as(direct.out() + direct.err()).isZero();

        CliRun waiting = as(bob, "request", "list");
        CliRun all = as(bob, "request", "list", "--all");
        CliRun approve = as(bob, "request", "approve", String.valueOf(id), "--operator", "bob");
        CliRun again = as(bob, "request", "approve", String.valueOf(id), "--operator", "bob");

        assertThat(waiting.out()).doesNotContain("discard of operation " + op.operationId());
        assertThat(all.out()).contains(id + "  OBSOLETE  discard of operation " + op.operationId(),
                "obsolete: none of its items is open any more (another path decided them)");
        assertThat(List.of(approve, again)).allSatisfy(run -> {
            assertThat(run.exit()).isEqualTo(ExitCode.BLOCKED);
            assertThat(run.out().strip()).isEqualTo("request " + id + ": ALREADY_DECIDED is "
                    + "obsolete: none of its items is open any more (another path decided them meanwhile), so there "
                    + "is nothing left to approve or reject");
        });
        assertThat(logins.admin().queryOne("SELECT state FROM decision_requests WHERE id = ?", row -> row.getString(1), id))
                .contains("OBSOLETE");
        assertThat(logins.admin().queryLong("SELECT count(*) FROM audit_log WHERE action = 'REQUEST_OBSOLETE' "
                + "AND (details->>'request_id')::bigint = ?", id)).isEqualTo(1);
        assertThat(logins.admin().queryOne("SELECT decided_by FROM dlq_entries WHERE id = ?", row -> row.getString(1),
                op.dlqEntryId())).contains("bob");
    }

    @Test
    void asTheSchemaOwner_theTypedNamesStandInForTheLogins() {
        CliRun.in(ns, "policy", "four-eyes", "on", "--corrections", "--operator", "carol");
        Created op = deadLettered();

        CliRun asked = CliRun.in(ns, "redrive", op.operationId(), "--payload", "{\"amount\":12,\"currency\":\"EUR\"}",
                "--reason", "amount was wrong", "--operator", "alice");
        long id = requestId(asked);
        CliRun own = CliRun.in(ns, "request", "approve", String.valueOf(id), "--operator", "Alice ");
        CliRun other = CliRun.in(ns, "request", "approve", String.valueOf(id), "--operator", "bob");

        assertThat(asked.out()).contains("four-eyes covers corrections", "correct-and-redrive of operation");
        assertThat(own.exit()).isEqualTo(ExitCode.REFUSED);
        assertThat(other.exit()).as(other.out() + other.err()).isZero();
        assertThat(decision(op)).isEqualTo("SUPERSEDED");
    }

    @Test
    void onlyTheSchemaOwnerChangesThePolicy_andBadInputGetsOneLine() {
        CliRun byOperator = as(alice, "policy", "four-eyes", "off", "--operator", "alice");
        CliRun badDuration = CliRun.in(ns, "policy", "four-eyes", "on", "--expire-after", "soon", "--operator", "carol");
        CliRun badSwitch = CliRun.in(ns, "policy", "four-eyes", "maybe", "--operator", "carol");
        CliRun unknown = CliRun.in(ns, "request", "approve", "999999", "--operator", "bob");

        assertThat(byOperator.exit()).isEqualTo(ExitCode.REFUSED);
        assertThat(badDuration.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(badDuration.err()).contains("--expire-after must be a positive duration such as 30m");
        assertThat(badSwitch.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(unknown.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(unknown.err()).contains("no decision request 999999");
    }

    @Test
    void anUnknownTool_orAnEmptyToolList_isRefusedInOneLine_andThePolicyStaysAsItWas() {
        CliRun.in(ns, "policy", "four-eyes", "off", "--operator", "carol");

        CliRun unknown = CliRun.in(ns, "policy", "four-eyes", "on", "--tools", "demo.charge,nosuch.tool",
                "--operator", "carol");
        CliRun empty = CliRun.in(ns, "policy", "four-eyes", "on", "--tools", "", "--operator", "carol");
        CliRun emptyAmong = CliRun.in(ns, "policy", "four-eyes", "on", "--tools", "demo.charge,,demo.ship",
                "--operator", "carol");

        assertThat(unknown.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(unknown.err().strip()).isEqualTo("four-eyes: --tools names an unknown tool: nosuch.tool; expected "
                + "a tool a worker or tool schema set registered, or one with DLQ entries; known: demo.charge, demo.ship "
                + "(see redrive policy four-eyes --help)");
        assertThat(List.of(empty, emptyAmong)).allSatisfy(run -> {
            assertThat(run.exit()).isEqualTo(ExitCode.USAGE);
            assertThat(run.err().strip()).isEqualTo("four-eyes: --tools takes tool names separated by commas, got an "
                    + "empty name; to cover every decision, switch four-eyes on without --tools (see redrive policy "
                    + "four-eyes --help)");
        });
        assertThat(CliRun.in(ns, "policy", "show").out()).startsWith("four-eyes off");
    }

    @Test
    void policyShowJson_writesDurationsAsIso8601_inTheUnitOfTheTextLine() {
        CliRun.in(ns, "policy", "four-eyes", "on", "--batch-over", "10", "--expire-after", "7d", "--operator", "carol");
        CliRun.in(ns, "policy", "retention", "90d", "--operator", "carol");
        try {
            CliRun text = CliRun.in(ns, "policy", "show");
            JsonNode json = TriageJson.parse(CliRun.in(ns, "policy", "show", "--json").out());

            assertThat(text.out()).contains("requests expire after 7d", "keep their evidence for 90d");
            assertThat(json.get("expire_after").asText()).isEqualTo("P7D");
            assertThat(json.get("retention").get("keep_evidence").asText()).isEqualTo("P90D");
            assertThat(Duration.parse(json.get("expire_after").asText())).isEqualTo(Duration.ofDays(7));
        } finally {
            CliRun.in(ns, "policy", "retention", "off", "--operator", "carol");
        }
    }

    @Test
    void policyOff_decidesDirectly() {
        CliRun off = CliRun.in(ns, "policy", "four-eyes", "off", "--operator", "carol");
        Created op = deadLettered();

        CliRun discarded = as(alice, "discard", op.operationId(), "--reason", "duplicate", "--operator", "alice");

        assertThat(off.out()).contains("four-eyes off");
        assertThat(discarded.exit()).as(discarded.out() + discarded.err()).isZero();
        assertThat(decision(op)).isEqualTo("DISCARDED");
    }
}
