package dev.redrive.worker;

import dev.redrive.testing.TestServers;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A {@link SoakWorkerMain} in a JVM of its own, with the signals an operating system sends a worker's process. */
final class WorkerProcess implements AutoCloseable {
    private final String name;
    private final List<String> command;
    private final Path log;
    private Process process;
    private boolean paused;

    private WorkerProcess(String name, List<String> command, Path log) {
        this.name = name;
        this.command = command;
        this.log = log;
    }

    static WorkerProcess start(String namespace, String redisUri, String toolsBase, String name) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        try {
            WorkerProcess worker = new WorkerProcess(name, List.of(java, "-Xmx256m", "-XX:+UseSerialGC",
                    "-XX:TieredStopAtLevel=1", "-cp", classpath, SoakWorkerMain.class.getName(), namespace, redisUri,
                    toolsBase, name), Files.createTempFile("redrive-soak-" + name, ".log"));
            worker.launch();
            return worker;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String name() {
        return name;
    }

    /** SIGKILL: the process dies mid-whatever, leases and pending entries left behind. */
    void kill() throws InterruptedException {
        cont();
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /** Starts the worker again under the same consumer name, as a supervisor would. */
    void restart() {
        launch();
    }

    /** SIGSTOP: the process freezes (a long GC pause, a stopped VM), its leases run out while it holds them. */
    void pause() {
        signal("STOP");
        paused = true;
    }

    void cont() {
        if (paused) {
            signal("CONT");
            paused = false;
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private void launch() {
        try {
            process = TestServers.pointedAtThem(new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .directory(new File(System.getProperty("user.dir")))).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start worker " + name, e);
        }
    }

    private void signal(String signal) {
        try {
            new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start().waitFor();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }
}
