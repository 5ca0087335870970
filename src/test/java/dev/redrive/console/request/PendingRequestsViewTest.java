package dev.redrive.console.request;

import dev.redrive.console.ThemedStage;
import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.testing.DatabaseLogin;
import dev.redrive.testing.LoginsFixture;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.DeadLetterFixture.Created;
import dev.redrive.triage.decision.DispatchPublisher;
import dev.redrive.triage.decision.batch.Sleeper;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.redaction.Redactor;
import dev.redrive.triage.request.DecisionRequest;
import dev.redrive.triage.request.DecisionRequests;
import dev.redrive.triage.request.FourEyesPolicy;
import dev.redrive.triage.request.PolicyStore;
import dev.redrive.triage.request.RequestKind;
import dev.redrive.triage.request.RequestOptions;
import dev.redrive.worker.client.WorkerClient;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.TableView;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The toolbar's badge and the list it opens, clicked as a second operator would: bob approves what alice asked for;
 * alice, clicking Approve on her own request, is told the database refused it; a rejection needs a reason.
 */
@ExtendWith(ApplicationExtension.class)
class PendingRequestsViewTest {
    static final TestNamespace ns = new TestNamespace();
    @RegisterExtension
    static final LoginsFixture logins = new LoginsFixture(ns);
    private static final Duration WAIT = Duration.ofSeconds(15);

    private static DatabaseLogin alice;
    private static DatabaseLogin bob;
    private static int node;
    private UiExecutor executor;
    private Stage stage;

    @BeforeAll
    static void seed() {
        alice = logins.operator("alice");
        bob = logins.operator("bob");
        new PolicyStore(ns.database()).write(FourEyesPolicy.of(true, null, false, List.of("demo.charge"), null),
                "carol", Instant.now());
    }

    @AfterEach
    void close(FxRobot robot) {
        robot.interact(() -> robot.listTargetWindows().stream().filter(window -> window != stage)
                .filter(window -> window instanceof Stage).toList().forEach(window -> ((Stage) window).close()));
        executor.close();
    }

    private static DecisionRequests requests(DatabaseLogin login) {
        WorkerClient client = new WorkerClient(login.database(), ns.redis(), Clock.systemUTC());
        return new DecisionRequests(login.database(), DispatchPublisher.of(() -> client), Redactor.defaults(),
                Clock.systemUTC(), Sleeper.SYSTEM);
    }

    private static DecisionRequest askedByAlice(Created op) {
        return requests(alice).submitIfCovered(RequestKind.DISCARD, List.of(DecisionTarget.operation(op.operationId())),
                null, RequestOptions.NONE, "alice", "duplicate of order 1042").orElseThrow().request();
    }

    /** Shows the badge in a window of its own, as the main window's toolbar holds it, connected as {@code login}. */
    private PendingRequestsViewModel showBadge(FxRobot robot, DatabaseLogin login, String operator) {
        executor = UiExecutor.forFx(2);
        PendingRequestsViewModel model = new PendingRequestsViewModel(RequestsBackend.of(requests(login)), executor,
                operator);
        robot.interact(() -> {
            stage = new Stage();
            PendingRequestsView view = PendingRequestsView.load(model);
            ThemedStage.show(stage, new StackPane(view.badge()), 1200, 800);
            model.refreshCount();
        });
        return model;
    }

    private static void selectRequest(FxRobot robot, long id) {
        TableView<DecisionRequest> table = robot.lookup("#requestsTable").queryTableView();
        await().atMost(WAIT).until(() -> table.getItems().stream().anyMatch(request -> request.id() == id));
        int row = table.getItems().stream().map(DecisionRequest::id).toList().indexOf(id);
        Node cell = robot.lookup(".table-row-cell").nth(row).query();
        robot.clickOn(cell);
    }

    private static String decision(Created op) {
        return ns.database().jdbc().queryOne("SELECT decision_state FROM dlq_entries WHERE id = ?",
                row -> row.getString(1), op.dlqEntryId()).orElseThrow();
    }

    @Test
    void bobClicksTheBadge_approvesAlicesRequest_andTheEntryIsDiscarded(FxRobot robot) {
        Created op = logins.deadLetters().deadLettered("run-console-requests", "charge-" + node++).create();
        DecisionRequest request = askedByAlice(op);
        showBadge(robot, bob, "bob");

        await().atMost(WAIT).untilAsserted(() -> assertThat(robot.lookup("#requestsBadge").queryButton().getText())
                .isNotEqualTo("Requests: 0").startsWith("Requests: "));
        robot.clickOn("#requestsBadge");
        selectRequest(robot, request.id());
        assertThat(robot.lookup("#requestDetail").queryLabeled().getText())
                .as("the chosen request in full, where the list's columns cut it")
                .contains("Request " + request.id() + ": discard of operation " + op.operationId())
                .contains("Asked by alice (login ").contains("Reason: duplicate of order 1042");
        robot.clickOn("#approveRequest");

        await().atMost(WAIT).untilAsserted(() -> assertThat(robot.lookup("#requestMessage").queryLabeled().getText())
                .startsWith("Request " + request.id()).doesNotContain("DONE"));
        assertThat(decision(op)).isEqualTo("DISCARDED");
        await().atMost(WAIT).untilAsserted(() -> assertThat(robot.lookup("#requestsTable").queryTableView().getItems())
                .noneMatch(item -> ((DecisionRequest) item).id() == request.id()));
    }

    @Test
    void aliceApprovingHerOwnRequest_isToldTheDatabaseRefusedIt_andRejectNeedsAReason(FxRobot robot) {
        Created op = logins.deadLetters().deadLettered("run-console-requests", "charge-" + node++).create();
        DecisionRequest request = askedByAlice(op);
        showBadge(robot, alice, "alice");

        robot.clickOn("#requestsBadge");
        selectRequest(robot, request.id());
        robot.clickOn("#approveRequest");

        await().atMost(WAIT).untilAsserted(() -> assertThat(robot.lookup("#requestMessage").queryLabeled().getText())
                .startsWith("Request " + request.id() + ": refused by the database")
                .contains("a second operator must approve it").doesNotContain("REFUSED"));
        assertThat(decision(op)).isEqualTo("OPEN");
        Button reject = robot.lookup("#rejectRequest").queryButton();
        assertThat(reject.isDisabled()).isTrue();
        robot.clickOn("#requestReason").write("asked by mistake");
        robot.clickOn("#rejectRequest");
        await().atMost(WAIT).untilAsserted(() -> assertThat(robot.lookup("#requestMessage").queryLabeled().getText())
                .contains("rejected by alice"));
        assertThat(decision(op)).isEqualTo("OPEN");
    }
}
