package dev.redrive.console.dlq;

import dev.redrive.console.ui.CountText;

/** A failure group that arrived entries started: its fingerprint, tool and class, and how many of them it holds. */
public record NewGroup(String fingerprint, String tool, String errorClass, long entries) {
    /** What a notice says of it. */
    public String describe() {
        return CountText.of(entries, "entry", "entries") + " of " + tool + " failing " + errorClass
                + ", fingerprint " + fingerprint;
    }
}
