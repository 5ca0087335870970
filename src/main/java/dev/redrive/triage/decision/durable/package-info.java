/**
 * Batches that survive their process: a batch's row, its selection and keyset position, the lease of the process
 * running it, and what each of its items ended as.
 * <p>
 * <b>Internal</b> to Redrive (the worker's machinery, the triage core, the CLI, the console, the demo or the
 * benchmarks): may change in any release; embedding services use the public API packages named in README.
 */
package dev.redrive.triage.decision.durable;
