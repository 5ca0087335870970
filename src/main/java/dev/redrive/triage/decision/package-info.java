/**
 * Deciding one item or a chunk of items (redrive, resolve, discard, reconcile) in one transaction each, and the
 * results every kind of decision reports. Batches, durable batches, verification and tool look-ups are its
 * sub-packages; this one knows none of them but the look-ups.
 * <p>
 * <b>Internal</b> to Redrive (the worker's machinery, the triage core, the CLI, the console, the demo or the
 * benchmarks): may change in any release; embedding services use the public API packages named in README.
 */
package dev.redrive.triage.decision;
