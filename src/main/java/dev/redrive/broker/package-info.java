/**
 * Redis. Public API: {@link dev.redrive.broker.Redis} (connect, close); the key layout is documented in docs/wire-
 * contract.md, the classes that write the keys are internal.
 *
 * <p>Internal classes may change in any release.
 */
package dev.redrive.broker;
