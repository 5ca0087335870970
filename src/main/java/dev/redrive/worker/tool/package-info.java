/**
 * What a worker executes: {@link dev.redrive.worker.tool.Tool}, the ready-made {@link
 * dev.redrive.worker.tool.HttpTool}, and the classified failures a tool throws.
 *
 * <p><b>Public API</b> for services that embed the worker: changed only by extending, or with a note in README.
 */
package dev.redrive.worker.tool;
