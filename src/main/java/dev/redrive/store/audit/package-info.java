/** The append-only audit log: its one writer and the actions it records. */
package dev.redrive.store.audit;
