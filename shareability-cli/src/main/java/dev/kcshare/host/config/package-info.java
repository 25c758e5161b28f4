/**
 * The host's MCP configuration as kcshare reads it (see {@code docs/config.md}): configured servers
 * with every definition and its execution identity ({@link
 * dev.kcshare.host.config.ConfiguredServer}), the Kiro Crew gateway settings ({@link
 * dev.kcshare.host.config.GatewaySettings}) and the host profile. An embedding gateway builds
 * {@link dev.kcshare.host.config.ConfiguredServer}s from its own definitions with {@code
 * Shareability.servers}.
 */
@NullMarked
package dev.kcshare.host.config;

import org.jspecify.annotations.NullMarked;
