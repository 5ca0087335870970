/**
 * <b>Internal</b> to Redrive: the trust a {@link dev.redrive.config.TlsSettings} gives, and the probe that names what
 * is wrong with a server's certificate when a driver refused it. May change in any release.
 */
package dev.redrive.tls;
