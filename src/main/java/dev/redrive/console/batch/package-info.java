/**
 * Durable batches in the console: the toolbar's badge of the batches that run, and the list of recent ones with their
 * progress (items per second, time left), where an operator stops one or resumes a stopped or abandoned one.
 * <p>
 * <b>Internal</b> to Redrive (the worker's machinery, the triage core, the CLI, the console, the demo or the
 * benchmarks): may change in any release; embedding services use the public API packages named in README.
 */
package dev.redrive.console.batch;
