/** Reconciliations: what a tool or an operator found out about an operation's side effect, and their one writer. */
package dev.redrive.store.reconciliation;
