package dev.kcshare.host.config;

import java.util.List;

/**
 * Cursor: {@code ~/.cursor/mcp.json} and the workspace's {@code .cursor/mcp.json}; {@code
 * mcpServers}; {@code ${env:NAME}}, {@code ${userHome}}, {@code ${workspaceFolder}} and friends
 * substituted.
 */
final class CursorClient implements ClientFamily {

  @Override
  public List<ConfigFormat> formats() {
    return List.of(ConfigFormat.CURSOR);
  }

  @Override
  public void locate(ClientHost host, Locations at) {
    at.userFile("cursor-user", host.home().resolve(".cursor/mcp.json"), ConfigFormat.CURSOR);
    at.workspaceFile("cursor-workspace", ".cursor/mcp.json", ConfigFormat.CURSOR);
  }

  @Override
  public Substitution.Style substitution(ConfigFormat format) {
    return Substitution.Style.EDITOR;
  }
}
