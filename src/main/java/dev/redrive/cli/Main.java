package dev.redrive.cli;

/**
 * The jar's entry point. A plain class (not a JavaFX Application) so that the shaded jar starts on the classpath.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        // Long-running commands (console, worker, demo) block inside execute until they are done; exiting
        // explicitly then stops client threads (Redis, pools) that would otherwise keep the JVM alive.
        System.exit(RedriveCommand.commandLine().execute(args));
    }
}
