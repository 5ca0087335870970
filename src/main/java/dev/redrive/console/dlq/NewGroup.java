package dev.redrive.console.dlq;

/** A failure group that arrived entries started: its fingerprint, tool and class, and how many of them it holds. */
public record NewGroup(String fingerprint, String tool, String errorClass, long entries) {
    /** What a notice says of it. */
    public String describe() {
        return (entries == 1 ? "1 entry" : entries + " entries") + " of " + tool + " failing " + errorClass
                + ", fingerprint " + fingerprint;
    }
}
