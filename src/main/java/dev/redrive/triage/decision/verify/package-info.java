/**
 * Whether a redrive did its work exactly once: the operation's attempts from the store, its effects counted by the
 * tool itself. Read-only.
 * <p>
 * <b>Internal</b> to Redrive (the worker's machinery, the triage core, the CLI, the console, the demo or the
 * benchmarks): may change in any release; embedding services use the public API packages named in README.
 */
package dev.redrive.triage.decision.verify;
