/**
 * Four-eyes: the namespace's policy, and the decision requests it turns covered decisions into, which a second
 * operator approves (the decision is then taken by the same code as a direct one) or rejects.
 * <p>
 * <b>Internal</b> to Redrive (the worker's machinery, the triage core, the CLI, the console, the demo or the
 * benchmarks): may change in any release; embedding services use the public API packages named in README.
 */
package dev.redrive.triage.request;
