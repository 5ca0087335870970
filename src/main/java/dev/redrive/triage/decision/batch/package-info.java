/**
 * Batches held in memory: a selection decided chunk by chunk at a pace, two chunks in flight, stoppable between
 * chunks; what a batch reports and who hears its progress.
 * <p>
 * <b>Internal</b> to Redrive (the worker's machinery, the triage core, the CLI, the console, the demo or the
 * benchmarks): may change in any release; embedding services use the public API packages named in README.
 */
package dev.redrive.triage.decision.batch;
