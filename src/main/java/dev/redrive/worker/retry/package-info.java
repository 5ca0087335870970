/**
 * Retry policy and tool admission. Public API: {@link dev.redrive.worker.retry.BackoffRetryPolicy} and {@link
 * dev.redrive.worker.retry.RetryPolicy}; the rest is internal.
 *
 * <p>Internal classes may change in any release.
 */
package dev.redrive.worker.retry;
