package dev.kcshare.host.config;

import dev.kcshare.core.json.internal.JsonInputException;
import java.util.List;
import java.util.Map;

/**
 * Amazon Q Developer CLI: {@code ~/.aws/amazonq/mcp.json}, the workspace's {@code
 * .amazonq/mcp.json} and the agents ({@code cli-agents/*.json}, global and in the workspace);
 * {@code mcpServers}; {@code ${env:VAR}} in env values; a variable set in Amazon Q's own
 * environment wins over the declared one; string env values only.
 */
final class AmazonQClient implements ClientFamily {

  @Override
  public List<ConfigFormat> formats() {
    return List.of(ConfigFormat.AMAZONQ, ConfigFormat.AMAZONQ_AGENT);
  }

  @Override
  public void locate(ClientHost host, Locations at) {
    at.userFile("amazonq-user", host.home().resolve(".aws/amazonq/mcp.json"), ConfigFormat.AMAZONQ);
    at.workspaceFile("amazonq-workspace", ".amazonq/mcp.json", ConfigFormat.AMAZONQ);
    at.directory(
        "amazonq-agent",
        host.home().resolve(".aws/amazonq/cli-agents"),
        List.of(".json"),
        ConfigFormat.AMAZONQ_AGENT);
    at.workspaceDirectory(
        "amazonq-agent", ".amazonq/cli-agents", List.of(".json"), ConfigFormat.AMAZONQ_AGENT);
  }

  @Override
  public Substitution.Style substitution(ConfigFormat format) {
    return Substitution.Style.AMAZONQ;
  }

  @Override
  public ConfigFormat.EnvValues envValues(ConfigFormat format) {
    return ConfigFormat.EnvValues.STRINGS;
  }

  /** Amazon Q sets its own environment over the declared env: a set variable wins. */
  @Override
  public void adjustEnv(
      ClientHost host,
      Entry entry,
      Map<String, String> declared,
      Map<String, String> fromFile,
      Map<String, String> env,
      List<String> warnings) {
    for (Map.Entry<String, String> e : env.entrySet()) {
      String value = host.env().get(e.getKey());
      if (value != null && !value.equals(e.getValue())) {
        e.setValue(value);
        warnings.add(
            JsonInputException.child(entry.at("env"), e.getKey())
                + ": Amazon Q gives the server its own value of this variable, which is set");
      }
    }
  }
}
