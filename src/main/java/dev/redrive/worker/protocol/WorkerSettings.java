package dev.redrive.worker.protocol;

import dev.redrive.worker.retry.RetryPolicy;
import dev.redrive.worker.retry.ToolGate;
import dev.redrive.worker.telemetry.AttemptSpans;
import dev.redrive.worker.telemetry.WorkerMetrics;
import dev.redrive.worker.tool.Tool;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * Everything a running worker is configured with (see {@code Worker.Builder} for meanings and defaults).
 *
 * @param leaseRenewalInterval how often the leases of attempts in flight are extended by a full lease duration
 * @param deliveryLimit after this many deliveries that claimed an operation without settling it (the handler
 *                      crashed, the worker died), it is dead-lettered
 * @param readBlock     how long a read waits for new entries
 * @param claimInterval how often entries idle past the lease time are looked for
 * @param sweepGrace    how long an operation may wait for a worker before its dispatch is published again
 * @param retentionInterval how often the namespace's retention policy is applied to decided DLQ entries
 * @param streamRetention how many entries the dispatch and DLQ streams keep (never trimming one a worker has not
 *                      read or acked)
 * @param metrics       where the worker's meters go
 * @param spans         where the worker's spans go
 * @param unservedToolGrace how long a dispatch of a tool no worker announced is handed on before it is dead-lettered
 *                      as no_worker_for_tool
 */
public record WorkerSettings(String consumerName, int concurrency, Duration leaseDuration,
                             Duration leaseRenewalInterval, int batchSize,
                             int deliveryLimit, int maxPayloadBytes, Duration readBlock, Duration claimInterval,
                             Duration schedulerInterval, Duration sweepGrace, Duration retentionInterval,
                             long streamRetention, Clock clock,
                             RetryPolicy retryPolicy, ToolGate gate, Map<String, Tool> tools,
                             WorkerMetrics metrics, AttemptSpans spans, Duration unservedToolGrace) {
}
