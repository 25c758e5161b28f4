package dev.kcshare.host.config;

import java.util.List;

/**
 * LM Studio: {@code ~/.lmstudio/mcp.json}; Cursor's {@code mcpServers} notation, values verbatim.
 */
final class LmStudioClient implements ClientFamily {

  @Override
  public List<ConfigFormat> formats() {
    return List.of(ConfigFormat.LMSTUDIO);
  }

  @Override
  public void locate(ClientHost host, Locations at) {
    at.userFile("lmstudio", host.home().resolve(".lmstudio/mcp.json"), ConfigFormat.LMSTUDIO);
  }
}
