package dev.redrive.triage.detail;

/** Where a redrive command stands: issued by triage, then claimed and completed by a worker exactly once. */
public enum RedriveCommandStatus {
    ISSUED, EXECUTING, SUCCEEDED, FAILED
}
