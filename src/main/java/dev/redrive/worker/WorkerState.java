package dev.redrive.worker;

/** Where a {@link Worker} is in its life: built, consuming, draining its in-flight attempts, or stopped. */
public enum WorkerState {
    NEW, RUNNING, STOPPING, STOPPED
}
