package dev.redrive.demo.sandbox;

import dev.redrive.store.Jdbc;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;

/**
 * Waits until the worker has finished with the seeded work: every planned operation is recorded and none is still
 * waiting, running or scheduled for a retry, and every malformed dispatch has reached the DLQ.
 */
final class SeedSettling {
    private static final String UNSETTLED = """
            SELECT count(*) FILTER (WHERE status IN ('PENDING', 'RUNNING', 'RETRY_SCHEDULED')) AS busy,
                   count(*) AS known
              FROM operations WHERE run_id = ANY (?)
            """;

    private static final String MALFORMED_DEAD_LETTERED = "SELECT count(*) FROM dlq_entries WHERE entry_id = ANY (?)";

    private final Jdbc jdbc;
    private final Clock clock;

    SeedSettling(Jdbc jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** The seeded work still in flight. */
    record Progress(long known, long busy, long malformedDeadLettered) {
    }

    /**
     * Polls until settled, reporting progress about every second.
     *
     * @throws SandboxException when the work has not settled within {@code timeout}
     */
    void await(List<String> runIds, int plannedOperations, List<String> malformedEntryIds, Duration timeout,
               Consumer<Progress> progress) {
        Instant deadline = clock.instant().plus(timeout);
        Progress last = progress(runIds, malformedEntryIds);
        while (!settled(last, plannedOperations, malformedEntryIds.size())) {
            if (clock.instant().isAfter(deadline)) {
                throw new SandboxException("the seeded work did not settle within " + timeout.toSeconds() + " s: "
                        + last.busy() + " of " + plannedOperations + " operations still in flight");
            }
            progress.accept(last);
            sleep();
            last = progress(runIds, malformedEntryIds);
        }
        progress.accept(last);
    }

    private Progress progress(List<String> runIds, List<String> malformedEntryIds) {
        String[] runs = runIds.toArray(String[]::new);
        long[] counts = jdbc.queryOne(UNSETTLED, row -> new long[]{row.getLong("known"), row.getLong("busy")}, (Object) runs)
                .orElse(new long[]{0, 0});
        long malformed = jdbc.queryLong(MALFORMED_DEAD_LETTERED, (Object) malformedEntryIds.toArray(String[]::new));
        return new Progress(counts[0], counts[1], malformed);
    }

    private static boolean settled(Progress progress, int plannedOperations, int malformed) {
        return progress.known() >= plannedOperations && progress.busy() == 0 && progress.malformedDeadLettered() >= malformed;
    }

    private static void sleep() {
        try {
            Thread.sleep(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SandboxException("interrupted while waiting for the seeded work to settle");
        }
    }
}
