/**
 * The v1 wire contract (see docs/wire-contract.md): the dispatch envelope, its codec and its validation rules.
 *
 * <p><b>Public API</b> for services that embed the worker: changed only by extending, or with a note in README.
 */
package dev.redrive.envelope;
