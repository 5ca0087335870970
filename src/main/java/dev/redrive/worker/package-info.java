/**
 * The embedded worker runtime: {@link dev.redrive.worker.Worker} and its builder.
 *
 * <p><b>Public API</b> for services that embed the worker: changed only by extending, or with a note in README.
 */
package dev.redrive.worker;
