package dev.redrive.testing;

import dev.redrive.demo.embedded.RedisPing;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A Redis Cluster of three masters for a test class: the nodes {@code REDRIVE_TEST_REDIS_CLUSTER} names
 * ({@code host:port,host:port,host:port}), or else one of the class's own, started from the same redis-server as
 * {@link RedisServerProcess} on free ports, its slots split in three and its nodes introduced to each other, and
 * stopped after the class. Register it as a static field next to the {@link TestNamespace}.
 */
public final class RedisClusterNodes implements BeforeAllCallback, AfterAllCallback {
    private static final int SLOTS = 16384;

    private List<Integer> ports;
    private final List<Process> nodes = new ArrayList<>();
    private Path ownDir;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        String named = System.getenv("REDRIVE_TEST_REDIS_CLUSTER");
        if (named != null && !named.isBlank()) {
            ports = Arrays.stream(named.split(",")).map(node -> Integer.parseInt(node.substring(node.lastIndexOf(':') + 1)))
                    .toList();
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
        for (int port : ports) {
            nodes.add(startNode(port));
        }
        form();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        for (Process node : nodes) {
            node.destroyForcibly();
            node.waitFor();
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
    public int portServing(String key) {
        int slot = on(ports.get(0), commands -> commands.sync().clusterKeyslot(key)).intValue();
        for (int port : ports) {
            for (String line : on(port, commands -> commands.sync().clusterNodes()).split("\n")) {
                if (line.contains("myself") && servesSlot(line, slot)) {
                    return port;
                }
            }
        }
        throw new IllegalStateException("no node serves slot " + slot);
    }

    private Process startNode(int port) throws IOException, InterruptedException {
        Path dir = Files.createDirectories(ownDir.resolve(Integer.toString(port)));
        Process node = new ProcessBuilder(RedisServerProcess.BINARY, "--port", Integer.toString(port), "--bind",
                "127.0.0.1", "--cluster-enabled", "yes", "--cluster-config-file", dir.resolve("nodes.conf").toString(),
                "--dir", dir.toString(), "--save", "", "--appendonly", "no")
                .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!RedisPing.answers(port, false)) {
            if (System.nanoTime() > deadline || !node.isAlive()) {
                throw new IllegalStateException("cluster node on port " + port + " did not start: see " + dir);
            }
            Thread.sleep(20);
        }
        return node;
    }

    /** A third of the slots to each node, then the nodes meet; formed once every node says cluster_state:ok. */
    private void form() throws InterruptedException {
        for (int i = 0; i < ports.size(); i++) {
            int from = SLOTS * i / ports.size();
            int to = SLOTS * (i + 1) / ports.size();
            int[] slots = IntStream.range(from, to).toArray();
            on(ports.get(i), commands -> commands.sync().clusterAddSlots(slots));
        }
        for (int port : ports.subList(1, ports.size())) {
            on(ports.get(0), commands -> commands.sync().clusterMeet("127.0.0.1", port));
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!ports.stream().allMatch(port -> on(port, commands -> commands.sync().clusterInfo())
                .contains("cluster_state:ok"))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the cluster on " + ports + " did not form: see " + ownDir);
            }
            Thread.sleep(100);
        }
    }

    private static <T> T on(int port, Function<StatefulRedisConnection<String, String>, T> command) {
        RedisClient client = RedisClient.create("redis://127.0.0.1:" + port);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return command.apply(connection);
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
        }
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
