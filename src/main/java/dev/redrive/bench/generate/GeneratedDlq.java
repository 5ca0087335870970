package dev.redrive.bench.generate;

import java.time.Duration;

/**
 * What one generator call wrote.
 *
 * @param tag     prefix of every run id written by the call ({@code tag-run-00001})
 * @param elapsed wall time of the whole call, statistics refresh included
 */
public record GeneratedDlq(String tag, int entries, int runs, long attempts, Duration elapsed) {
}
