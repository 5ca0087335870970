/**
 * Where Redrive finds PostgreSQL and Redis and which namespace it works in: {@link dev.redrive.config.RedriveConfig},
 * read from the REDRIVE_* environment variables.
 *
 * <p><b>Public API</b> for services that embed the worker: changed only by extending, or with a note in README.
 */
package dev.redrive.config;
