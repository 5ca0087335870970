/** Redrive commands as issued: their one writer, and the locks every decision takes before it issues one. */
package dev.redrive.store.command;
