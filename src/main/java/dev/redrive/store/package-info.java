/**
 * The operation store on PostgreSQL. Public API: {@link dev.redrive.store.Database} (open, migrate, close); the rest,
 * and the packages below, are internal.
 *
 * <p>Internal classes may change in any release.
 */
package dev.redrive.store;
