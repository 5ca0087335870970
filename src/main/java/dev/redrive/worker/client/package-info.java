/**
 * The publishing side: {@link dev.redrive.worker.client.WorkerClient} records an operation in PostgreSQL, then
 * publishes its dispatch.
 *
 * <p><b>Public API</b> for services that embed the worker: changed only by extending, or with a note in README.
 */
package dev.redrive.worker.client;
