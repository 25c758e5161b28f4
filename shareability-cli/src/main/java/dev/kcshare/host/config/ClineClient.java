package dev.kcshare.host.config;

import static dev.kcshare.host.config.Shapes.at;
import static dev.kcshare.host.config.Shapes.plain;
import static dev.kcshare.host.config.Shapes.putIfPresent;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Cline: its shared {@code cline_mcp_settings.json} (with its overrides) and the files of the VS
 * Code extension it migrates from; {@code mcpServers}, also the nested transport form; string env
 * values only.
 */
final class ClineClient implements ClientFamily {

  @Override
  public List<ConfigFormat> formats() {
    return List.of(ConfigFormat.CLINE);
  }

  @Override
  public void locate(ClientHost host, Locations at) {
    at.userFile("cline", clineFile(host), ConfigFormat.CLINE);
    at.userFile(
        "cline-vscode",
        VsCodeClient.userDirectory(host)
            .resolve("globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json"),
        ConfigFormat.CLINE);
    at.userFile(
        "cline-vscode",
        host.home().resolve("Documents/Cline/MCP/cline_mcp_settings.json"),
        ConfigFormat.CLINE);
  }

  /** Cline's shared settings file and its overrides, first set wins. */
  private static Path clineFile(ClientHost host) {
    String file = ClientHost.nonEmpty(host.env().get("CLINE_MCP_SETTINGS_PATH"));
    if (file != null) {
      return host.cwd().resolve(host.expandTilde(file));
    }
    String data = ClientHost.nonEmpty(host.env().get("CLINE_DATA_DIR"));
    if (data != null) {
      return host.cwd().resolve(host.expandTilde(data)).resolve("settings/cline_mcp_settings.json");
    }
    Path root = host.directory(host.env().get("CLINE_DIR"), host.home().resolve(".cline"));
    return root.resolve("data/settings/cline_mcp_settings.json");
  }

  @Override
  public ConfigFormat.EnvValues envValues(ConfigFormat format) {
    return ConfigFormat.EnvValues.STRINGS;
  }

  @Override
  public Shapes.@Nullable Mapped map(
      ConfigFormat format, String name, String pointer, Map<?, ?> raw, List<String> warnings) {
    return plain(cline(name, pointer, raw));
  }

  private static Entry cline(String name, String pointer, Map<?, ?> raw) {
    Object transport = raw.get("transport");
    Entry e;
    if (transport instanceof Map<?, ?> nested) {
      e = Entry.standard(name, pointer, Map.of());
      String t = at(pointer, "transport");
      for (String member : List.of("type", "command", "args", "cwd", "env", "url")) {
        putIfPresent(e, nested, t, member, member);
      }
      putIfPresent(e, raw, pointer, "disabled", "disabled");
      return e;
    }
    if (transport != null) {
      throw EntryParser.expected(at(pointer, "transport"), "an object", transport);
    }
    e = Entry.standard(name, pointer, raw);
    if (raw.get("type") == null && raw.get("transportType") != null) {
      e.put("type", raw.get("transportType"), at(pointer, "transportType"));
    }
    return e;
  }
}
