/**
 * Finding and masking secrets in text of any origin, in time linear in its length. A package of its own below every
 * other: the envelope codec, the configuration, the worker and the report all mask with it.
 * <p>
 * <b>Internal</b> to Redrive: may change in any release; embedding services use the public API packages named in
 * README.
 */
package dev.redrive.secret;
