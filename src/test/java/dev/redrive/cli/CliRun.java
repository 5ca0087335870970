package dev.redrive.cli;

import dev.redrive.testing.DatabaseLogin;
import dev.redrive.testing.TestNamespace;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

/** One in-process run of the command line, typed as an operator would in a test's namespace: its exit code and output. */
public record CliRun(int exit, String out, String err) {

    /** Runs {@code redrive ARGS --namespace <the test's namespace>}. */
    public static CliRun in(TestNamespace ns, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--namespace");
        all.add(ns.name());
        return of(all.toArray(String[]::new));
    }

    /** Runs {@code redrive ARGS --pg-user LOGIN --pg-password ... --namespace <the test's namespace>}. */
    static CliRun as(DatabaseLogin login, TestNamespace ns, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--pg-user", login.login(), "--pg-password", login.config().pgPassword()));
        return in(ns, all.toArray(String[]::new));
    }

    /** Runs {@code redrive ARGS} as typed, for a server of the test's own. */
    public static CliRun of(String... args) {
        CommandLine cli = RedriveCommand.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exit = cli.execute(args);
        return new CliRun(exit, out.toString(), err.toString());
    }
}
