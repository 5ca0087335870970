package dev.redrive.cli;

/**
 * The command line's exit codes, one table for every command (README, Command line). Scripts depend on them: a new
 * code is added, an existing one never changes meaning.
 */
public final class ExitCode {
    /** When everything was done. */
    public static final int OK = 0;
    /** Of an unexpected failure (a bug, or a server failing in a way not foreseen). */
    public static final int UNEXPECTED = 1;
    /** When the input or the configuration is wrong, including a namespace that was never migrated. */
    public static final int USAGE = 2;
    /** When a decision is blocked by a failed precondition or someone else's decision, or a dispatch conflicts. */
    public static final int BLOCKED = 3;
    /** When PostgreSQL or Redis cannot be reached. */
    public static final int UNAVAILABLE = 4;
    /** When the database refuses the login, a privilege, or a viewer's decision. */
    public static final int REFUSED = 5;
    /** When the four-eyes policy turned the decision into a request for a second operator's approval. */
    public static final int WAITS_FOR_APPROVAL = 6;
    /** When a batch was stopped (batch stop, a signal) before it took every item: batch resume goes on with it. */
    public static final int STOPPED = 7;

    private ExitCode() {
    }
}
