/**
 * The host's MCP configuration as kcshare reads it (see {@code docs/config.md}): one family per
 * client, the discovery order, the readers that build {@link dev.kcshare.api.ServerDefinition}s
 * through its builder and group them into {@link dev.kcshare.api.ConfiguredServer}s with each
 * definition's source and execution identity, the Kiro Crew gateway settings ({@link
 * dev.kcshare.host.config.GatewaySettings}) and the host profile.
 */
@NullMarked
package dev.kcshare.host.config;

import org.jspecify.annotations.NullMarked;
