/**
 * The host's MCP configuration as kcshare reads it (see {@code docs/config.md}): configured servers
 * with every definition and its execution identity ({@link
 * dev.kcshare.cli.config.ConfiguredServer}), the Kiro Crew gateway settings ({@link
 * dev.kcshare.cli.config.GatewaySettings}) and the host profile. An embedding gateway builds {@link
 * dev.kcshare.cli.config.ConfiguredServer}s from its own definitions with {@code
 * Shareability.servers}.
 */
@NullMarked
package dev.kcshare.cli.config;

import org.jspecify.annotations.NullMarked;
