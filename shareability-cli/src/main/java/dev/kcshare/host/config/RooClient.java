package dev.kcshare.host.config;

import java.util.List;

/**
 * Roo Code: the VS Code extension's {@code mcp_settings.json} and the project's {@code
 * .roo/mcp.json}; {@code mcpServers}; {@code ${env:NAME}}, {@code ${workspaceFolder}}; string env
 * values only.
 */
final class RooClient implements ClientFamily {

  @Override
  public List<ConfigFormat> formats() {
    return List.of(ConfigFormat.ROO);
  }

  @Override
  public void locate(ClientHost host, Locations at) {
    at.userFile(
        "roo-user",
        VsCodeClient.userDirectory(host)
            .resolve("globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json"),
        ConfigFormat.ROO);
    at.workspaceFile("roo-project", ".roo/mcp.json", ConfigFormat.ROO);
  }

  @Override
  public Substitution.Style substitution(ConfigFormat format) {
    return Substitution.Style.ROO;
  }

  @Override
  public ConfigFormat.EnvValues envValues(ConfigFormat format) {
    return ConfigFormat.EnvValues.STRINGS;
  }
}
