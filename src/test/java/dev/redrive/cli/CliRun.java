package dev.redrive.cli;

import dev.redrive.testing.DatabaseLogin;
import dev.redrive.testing.TestNamespace;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/** One in-process run of the command line, typed as an operator would in a test's namespace: its exit code and output. */
public record CliRun(int exit, String out, String err) {

    /** Runs {@code redrive ARGS --namespace <the test's namespace>} on the servers the tests share. */
    public static CliRun in(TestNamespace ns, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(connection(ns, all));
        all.add("--namespace");
        all.add(ns.name());
        return of(all.toArray(String[]::new));
    }

    /** The options that name the namespace's servers, less those {@code given} already names. */
    static List<String> connection(TestNamespace ns, List<String> given) {
        List<String> options = new ArrayList<>();
        if (!given.contains("--pg-url")) {
            options.addAll(List.of("--pg-url", ns.config().pgUrl()));
        }
        if (!given.contains("--pg-user")) {
            options.addAll(List.of("--pg-user", ns.config().pgUser()));
        }
        if (!given.contains("--redis-uri")) {
            options.addAll(List.of("--redis-uri", ns.config().redisUri()));
        }
        return options;
    }

    /**
     * Runs {@code redrive ARGS --pg-user LOGIN --pg-password-file FILE --namespace <the test's namespace>}, the
     * password in a file as README advises (given with --pg-password, it would show in ps, and stderr would say so).
     */
    static CliRun as(DatabaseLogin login, TestNamespace ns, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--pg-user", login.login(), "--pg-password-file", passwordFile(login.config().pgPassword())));
        return in(ns, all.toArray(String[]::new));
    }

    /** A file only its owner reads, deleted when the JVM exits, whose first line is {@code password}. */
    static String passwordFile(String password) {
        try {
            Path file = Files.createTempFile("redrive-password-", "",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            file.toFile().deleteOnExit();
            Files.writeString(file, password + "\n");
            return file.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs {@code redrive ARGS} as typed, for a server of the test's own. */
    public static CliRun of(String... args) {
        return of(PasswordPrompt.TERMINAL, args);
    }

    /** As {@link #of(String...)}, with {@code prompt} answering when the server asks for a password. */
    static CliRun of(PasswordPrompt prompt, String... args) {
        CommandLine cli = RedriveCommand.commandLine(prompt);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exit = cli.execute(args);
        return new CliRun(exit, out.toString(), err.toString());
    }
}
