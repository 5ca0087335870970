/**
 * The stable operation identity {@code run_id:node_id:logical_attempt} and its idempotency key.
 *
 * <p><b>Public API</b> for services that embed the worker: changed only by extending, or with a note in README.
 */
package dev.redrive.identity;
