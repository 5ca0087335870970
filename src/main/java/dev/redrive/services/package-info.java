/**
 * The composition root of triage: {@link dev.redrive.services.TriageServices} opens the operation store and the broker
 * for a namespace and builds every triage service on them, for the console and the CLI alike.
 *
 * <p><b>Internal</b> to Redrive (the worker's machinery, the triage core, the CLI, the console, the demo or the
 * benchmarks): may change in any release; embedding services use the public API packages named in README.
 */
package dev.redrive.services;
