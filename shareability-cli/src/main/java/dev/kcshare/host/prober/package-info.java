/**
 * The stdio pre-flight (docs/design.md#the-pre-flight): spawns a configured MCP server under two
 * client identities, collects each one's handshake surface and tears the processes down. The
 * decision itself is the core's ({@link dev.kcshare.core.handshake.PreflightResult#decide}).
 */
@NullMarked
package dev.kcshare.host.prober;

import org.jspecify.annotations.NullMarked;
