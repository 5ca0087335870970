/**
 * The states and failure classes every part of Redrive speaks in.
 *
 * <p><b>Public API</b> for services that embed the worker: changed only by extending, or with a note in README.
 */
package dev.redrive.model;
