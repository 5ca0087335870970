package dev.redrive.console.request;

import dev.redrive.console.ui.DialogSize;
import dev.redrive.console.ui.FxmlView;
import dev.redrive.console.ui.ListDialog;
import dev.redrive.console.ui.Shown;
import dev.redrive.console.ui.TextColumn;
import dev.redrive.triage.request.DecisionRequest;
import javafx.css.PseudoClass;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.stage.Window;

import java.util.List;

/**
 * The pending-requests badge of the main window's toolbar and the list it opens, where a second operator approves or
 * rejects what another asked for.
 */
public final class PendingRequestsView extends FxmlView<PendingRequestsViewModel> {
    private static final PseudoClass WAITING = PseudoClass.getPseudoClass("waiting");

    @FXML private TableView<DecisionRequest> requestsTable;
    @FXML private TextField operatorField;
    @FXML private TextField reasonField;
    @FXML private Button approveButton;
    @FXML private Button rejectButton;
    @FXML private Label messageLabel;
    @FXML private Label detailLabel;

    private final Button badge = new Button();

    public static PendingRequestsView load(PendingRequestsViewModel model) {
        return FxmlView.load("/console/request/PendingRequests.fxml", model);
    }

    private void initializeParts() {
        badge.setId("requestsBadge");
        badge.getStyleClass().addAll("flat", "requests-badge");
        badge.setOnAction(event -> open(badge.getScene().getWindow()));
        // The columns share the list's width (the reason takes what is left); the selected request reads in full below.
        requestsTable.getColumns().setAll(List.of(
                TextColumn.of("Id", 40, request -> String.valueOf(request.id())),
                TextColumn.of("Decision", 300, DecisionRequest::summary),
                TextColumn.of("Asked by", 170, request -> request.requestedBy() + " (login " + request.requestedLogin() + ")"),
                TextColumn.of("Why it waits", 210, DecisionRequest::coveredBy),
                TextColumn.of("Expires", 130, request -> PendingRequestsViewModel.time(request.expiresAt())),
                TextColumn.of("Reason", 200, DecisionRequest::reason)));
        requestsTable.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        requestsTable.setRowFactory(table -> new TableRow<>() {
            @Override
            protected void updateItem(DecisionRequest request, boolean empty) {
                super.updateItem(request, empty);
                setTooltip(empty || request == null ? null : new Tooltip(PendingRequestsViewModel.describe(request)));
            }
        });
        requestsTable.setPlaceholder(new Label("No request waits for approval."));
    }

    @Override
    protected void bind() {
        initializeParts();
        badge.textProperty().bind(model.badgeProperty());
        model.countProperty().addListener((obs, was, now) ->
                badge.pseudoClassStateChanged(WAITING, now.longValue() > 0));
        requestsTable.setItems(model.requests());
        requestsTable.getSelectionModel().selectedItemProperty().addListener((obs, was, now) -> {
            if (now != null) {
                model.selectedProperty().set(now);
            }
        });
        model.selectedProperty().addListener((obs, was, now) -> {
            if (now != requestsTable.getSelectionModel().getSelectedItem()) {
                requestsTable.getSelectionModel().select(now);
            }
        });
        operatorField.textProperty().bindBidirectional(model.operatorProperty());
        reasonField.textProperty().bindBidirectional(model.reasonProperty());
        approveButton.disableProperty().bind(model.selectedProperty().isNull()
                .or(model.operatorProperty().isEmpty()));
        rejectButton.disableProperty().bind(model.selectedProperty().isNull()
                .or(model.operatorProperty().isEmpty()).or(model.reasonProperty().isEmpty()));
        messageLabel.textProperty().bind(model.messageProperty());
        detailLabel.textProperty().bind(model.detailProperty());
        Shown.when(model.detailProperty().isEmpty().not(), detailLabel);
    }

    /** The toolbar's badge: "Requests: N"; clicking it opens the list. */
    public Button badge() {
        return badge;
    }

    /** Opens the list over the window, reading the requests that wait now. */
    public void open(Window owner) {
        model.load();
        ListDialog.show(owner, "Requests waiting for approval", root(), new DialogSize(900, 520), () -> { });
    }

    @FXML
    private void approve() {
        model.approve();
    }

    @FXML
    private void reject() {
        model.reject();
    }
}
