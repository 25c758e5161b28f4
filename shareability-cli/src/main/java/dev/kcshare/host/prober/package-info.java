/**
 * The stdio pre-flight (docs/design.md#the-pre-flight): spawns a configured MCP server under two
 * client identities, collects each one's handshake surface and tears the processes down. The
 * decision itself is the core's ({@link dev.kcshare.core.handshake.PreflightResult#decide}).
 *
 * <p>What runs once per identity, on the identities' own threads, uses named classes rather than
 * lambdas or method references: the launcher's start-up archive holds one class per lambda shape,
 * handed out once, so a second call site of the same shape, or two threads linking one call site at
 * once (both identities start together), spin a class of their own at run time, on every
 * pre-flight.
 */
@NullMarked
package dev.kcshare.host.prober;

import org.jspecify.annotations.NullMarked;
