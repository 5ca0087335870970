/**
 * <b>Internal</b> to Redrive (the worker's machinery, the triage core, the CLI, the console, the demo or the
 * benchmarks): may change in any release; embedding services use the public API packages named in README.
 *
 * <p>Time-axis arithmetic shared by the console's attempt timeline and the reports' timelines, without a toolkit.
 */
package dev.redrive.timeline;
