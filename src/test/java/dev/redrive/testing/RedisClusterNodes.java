package dev.redrive.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;

/**
 * A local Redis Cluster of three masters for a test class: the one {@code installer/redis-cluster.sh start} runs on
 * ports 7001–7003 (CI starts it) when it answers, otherwise one of the class's own on free ports, started by the same
 * script and stopped after the class. Register it as a static field next to the {@link TestNamespace}.
 */
public final class RedisClusterNodes implements BeforeAllCallback, AfterAllCallback {
    private static final List<Integer> SHARED_PORTS = List.of(7001, 7002, 7003);
    private static final Path SCRIPT = Path.of("installer", "redis-cluster.sh");

    private List<Integer> ports;
    private Path ownDir;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        if (clusterOk(SHARED_PORTS.get(0))) {
            ports = SHARED_PORTS;
            return;
        }
        ports = new ArrayList<>();
        while (ports.size() < 3) {
            int port = freePort();
            if (!ports.contains(port)) {
                ports.add(port);
            }
        }
        ownDir = Files.createTempDirectory("redrive-cluster-");
        List<String> command = new ArrayList<>(List.of(SCRIPT.toString(), "start"));
        ports.forEach(port -> command.add(Integer.toString(port)));
        ProcessBuilder start = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ownDir.resolve("start.log").toFile());
        start.environment().put("REDRIVE_CLUSTER_DIR", ownDir.toString());
        if (start.start().waitFor() != 0) {
            throw new IllegalStateException("could not start a Redis Cluster on " + ports + ": see " + ownDir);
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (ownDir != null) {
            List<String> command = new ArrayList<>(List.of(SCRIPT.toString(), "stop"));
            ports.forEach(port -> command.add(Integer.toString(port)));
            new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ownDir.resolve("stop.log").toFile())
                    .start().waitFor();
        }
    }

    /** Every node as a seed: {@code redis://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3}. */
    public String uri() {
        return "redis://" + ports.stream().map(port -> "127.0.0.1:" + port).collect(Collectors.joining(","));
    }

    /** One node alone, as an operator who names a single node of the cluster would. */
    public String uriOfNode(int port) {
        return "redis://127.0.0.1:" + port;
    }

    public List<Integer> ports() {
        return ports;
    }

    /** The port of the master that serves {@code key}'s slot. */
    public int portServing(String key) throws IOException, InterruptedException {
        int slot = Integer.parseInt(cli(ports.get(0), "cluster", "keyslot", key).strip());
        for (int port : ports) {
            for (String line : cli(port, "cluster", "nodes").split("\n")) {
                if (line.contains("myself") && servesSlot(line, slot)) {
                    return port;
                }
            }
        }
        throw new IllegalStateException("no node serves slot " + slot);
    }

    private static boolean servesSlot(String nodesLine, int slot) {
        String[] fields = nodesLine.strip().split(" ");
        for (int i = 8; i < fields.length; i++) {
            String[] range = fields[i].split("-");
            if (range[0].startsWith("[")) {
                continue;
            }
            int from = Integer.parseInt(range[0]);
            int to = range.length > 1 ? Integer.parseInt(range[1]) : from;
            if (slot >= from && slot <= to) {
                return true;
            }
        }
        return false;
    }

    private static boolean clusterOk(int port) throws IOException, InterruptedException {
        return cli(port, "cluster", "info").contains("cluster_state:ok");
    }

    private static String cli(int port, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("redis-cli", "-p", Integer.toString(port)));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes());
        process.waitFor();
        return out;
    }

    /**
     * A free port whose cluster bus port (the port + 10000) is free and valid too, which an ephemeral port from the
     * operating system often is not. Node ports stay below 30000, so no node's port is another node's bus port.
     */
    private static int freePort() {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(20000, 30000);
            if (free(port) && free(port + 10000)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port pair for a cluster node between 20000 and 30000");
    }

    private static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket(port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
