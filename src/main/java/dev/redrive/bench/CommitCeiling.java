package dev.redrive.bench;

import dev.redrive.store.Database;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The baseline: how many single-row transactions this PostgreSQL commits per second from {@code threads}
 * connections. No worker can commit operations faster than its store commits transactions, so the worker's rate is
 * reported as a ratio of this ceiling, measured in the same run on the same server.
 */
final class CommitCeiling {
    private static final String INSERT = "INSERT INTO runs (run_id) VALUES (?)";

    private CommitCeiling() {
    }

    static double commitsPerSecond(Database database, int threads, Duration duration) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        AtomicBoolean running = new AtomicBoolean(true);
        try {
            List<Future<Long>> counts = new ArrayList<>();
            long started = System.nanoTime();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                counts.add(pool.submit(() -> commitUntilStopped(database, "ceiling-" + started + "-" + thread + "-",
                        running)));
            }
            Thread.sleep(duration.toMillis());
            running.set(false);
            long commits = 0;
            for (Future<Long> count : counts) {
                commits += count.get();
            }
            return commits / ((System.nanoTime() - started) / 1e9);
        } finally {
            pool.shutdownNow();
        }
    }

    private static long commitUntilStopped(Database database, String prefix, AtomicBoolean running) throws SQLException {
        long commits = 0;
        try (Connection connection = database.connection();
             PreparedStatement insert = connection.prepareStatement(INSERT)) {
            connection.setAutoCommit(true);
            while (running.get()) {
                insert.setString(1, prefix + commits);
                insert.executeUpdate();
                commits++;
            }
        }
        return commits;
    }
}
