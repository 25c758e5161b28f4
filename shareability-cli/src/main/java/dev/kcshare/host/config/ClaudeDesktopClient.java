package dev.kcshare.host.config;

import java.util.List;

/**
 * Claude Desktop: {@code claude_desktop_config.json} in the platform's application-data directory;
 * {@code mcpServers}, values verbatim.
 */
final class ClaudeDesktopClient implements ClientFamily {

  @Override
  public List<ConfigFormat> formats() {
    return List.of(ConfigFormat.CLAUDE_DESKTOP);
  }

  @Override
  public void locate(ClientHost host, Locations at) {
    at.userFile(
        "claude-desktop",
        host.appData().resolve("Claude").resolve("claude_desktop_config.json"),
        ConfigFormat.CLAUDE_DESKTOP);
  }
}
