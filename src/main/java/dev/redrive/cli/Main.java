package dev.redrive.cli;

import picocli.CommandLine;

/**
 * The jar's entry point. A plain class (not a JavaFX Application) so that the shaded jar starts on the classpath.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        int exitCode = RedriveCommand.commandLine().execute(args);
        if (exitCode != 0 || !RedriveCommand.keepsRunning(args)) {
            System.exit(exitCode);
        }
    }
}
