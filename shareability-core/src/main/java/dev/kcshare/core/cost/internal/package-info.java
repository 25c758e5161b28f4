/**
 * Pure parsers of the Linux {@code /proc} text a session's footprint is read from ({@link
 * ProcText}), and the screens that decide which {@code /proc} entries a look for a pass's own
 * processes reads ({@link ProcScreen}); exported to the command-line module alone. Reading {@code
 * /proc} is the prober's.
 */
@NullMarked
package dev.kcshare.core.cost.internal;

import org.jspecify.annotations.NullMarked;
