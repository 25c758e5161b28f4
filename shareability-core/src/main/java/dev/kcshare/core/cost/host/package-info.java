/**
 * Pure parsers of the Linux {@code /proc} text a session's footprint is read from ({@link
 * ProcText}), exported to the command-line module alone; reading {@code /proc} is the prober's.
 */
@NullMarked
package dev.kcshare.core.cost.host;

import org.jspecify.annotations.NullMarked;
