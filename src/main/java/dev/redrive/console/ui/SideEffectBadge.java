package dev.redrive.console.ui;

import dev.redrive.model.SideEffectState;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.Tooltip;

import java.util.Locale;

/** A side-effect state as a coloured badge; POSSIBLE is loud because it blocks a redrive until reconciled. */
public final class SideEffectBadge extends Label {
    private static final String[] STATE_CLASSES = {"side-effect-none", "side-effect-possible", "side-effect-applied",
            "side-effect-not-applied"};

    public SideEffectBadge() {
        getStyleClass().add("side-effect-badge");
    }

    public SideEffectBadge(SideEffectState state) {
        this();
        show(state);
    }

    public void show(SideEffectState state) {
        getStyleClass().removeAll(STATE_CLASSES);
        if (state == null) {
            setText("");
            setTooltip(null);
            return;
        }
        setText(state == SideEffectState.POSSIBLE ? "⚠ POSSIBLE" : state.name().replace('_', ' '));
        getStyleClass().add(styleClass(state));
        setTooltip(new Tooltip(explain(state)));
    }

    /** A table cell that shows its side-effect state as a badge. */
    public static <S> TableCell<S, SideEffectState> tableCell() {
        return new TableCell<>() {
            private final SideEffectBadge badge = new SideEffectBadge();

            @Override
            protected void updateItem(SideEffectState state, boolean empty) {
                super.updateItem(state, empty);
                badge.show(empty ? null : state);
                setGraphic(empty || state == null ? null : badge);
            }
        };
    }

    public static String styleClass(SideEffectState state) {
        return "side-effect-" + state.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static String explain(SideEffectState state) {
        return switch (state) {
            case NONE -> "No side effect can have happened: safe to re-run.";
            case POSSIBLE -> "The tool may have applied the effect: reconcile before any redrive.";
            case APPLIED -> "Reconciliation found the effect applied: resolve as succeeded, never re-run.";
            case NOT_APPLIED -> "Reconciliation found the effect not applied: safe to re-run.";
        };
    }
}
