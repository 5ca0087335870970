package dev.redrive.console.ui;

import dev.redrive.model.SideEffectState;
import javafx.scene.control.Label;
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
