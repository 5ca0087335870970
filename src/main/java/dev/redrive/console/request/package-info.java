/**
 * Four-eyes in the console: the badge counting the requests that wait for a second operator, and the list where one
 * approves or rejects them.
 * <p>
 * <b>Internal</b> to Redrive (the worker's machinery, the triage core, the CLI, the console, the demo or the
 * benchmarks): may change in any release; embedding services use the public API packages named in README.
 */
package dev.redrive.console.request;
