/**
 * Redrive: an embedded exactly-once-effect worker runtime and a dead-letter triage console.
 *
 * <p>Internal: the runtime version.
 */
package dev.redrive;
