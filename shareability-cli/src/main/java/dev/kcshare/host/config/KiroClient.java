package dev.kcshare.host.config;

import java.util.List;

/**
 * Kiro: {@code ~/.kiro/settings/mcp.json}, the workspace's {@code .kiro/settings/mcp.json} and the
 * agents ({@code ~/.kiro/agents/*.json}); {@code mcpServers}, values verbatim, {@code disabled:
 * true}.
 */
final class KiroClient implements ClientFamily {

  @Override
  public List<ConfigFormat> formats() {
    return List.of(ConfigFormat.KIRO, ConfigFormat.KIRO_AGENT);
  }

  @Override
  public void locate(ClientHost host, Locations at) {
    at.userFile("kiro-user", host.home().resolve(".kiro/settings/mcp.json"), ConfigFormat.KIRO);
    at.workspaceFile("kiro-workspace", ".kiro/settings/mcp.json", ConfigFormat.KIRO);
    at.directory(
        "kiro-agent",
        host.home().resolve(".kiro/agents"),
        List.of(".json"),
        ConfigFormat.KIRO_AGENT);
  }
}
