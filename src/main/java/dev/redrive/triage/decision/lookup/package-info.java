/**
 * Asking a tool what it did for an idempotency key (a Tool of this process, or an HTTP look-up endpoint): the
 * answer a reconciliation records and a verification counts.
 * <p>
 * <b>Internal</b> to Redrive (the worker's machinery, the triage core, the CLI, the console, the demo or the
 * benchmarks): may change in any release; embedding services use the public API packages named in README.
 */
package dev.redrive.triage.decision.lookup;
