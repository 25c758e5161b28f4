package dev.kcshare.host.config;

import static dev.kcshare.host.config.Shapes.ignored;
import static dev.kcshare.host.config.Shapes.plain;

import dev.kcshare.core.json.internal.JsonInputException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * VS Code: the workspace's {@code .vscode/mcp.json}, the user's {@code mcp.json}, each profile's,
 * and the {@code mcp.servers} section of the user {@code settings.json} (1.101 and earlier); {@code
 * servers}; the editor variables plus {@code ${input:ID}}; {@code envFile}; number and null env
 * values as VS Code reads them; no {@code disabled} member; a declared {@code PATH} is appended to
 * the inherited one.
 */
final class VsCodeClient implements ClientFamily {

  @Override
  public List<ConfigFormat> formats() {
    return List.of(ConfigFormat.VSCODE, ConfigFormat.VSCODE_SETTINGS);
  }

  @Override
  public void locate(ClientHost host, Locations at) {
    at.workspaceFile("vscode-workspace", ".vscode/mcp.json", ConfigFormat.VSCODE);
    Path user = userDirectory(host);
    at.userFile("vscode-user", user.resolve("mcp.json"), ConfigFormat.VSCODE);
    at.subdirectoryFiles(
        "vscode-profile", user.resolve("profiles"), "mcp.json", ConfigFormat.VSCODE);
    at.userFile("vscode-settings", user.resolve("settings.json"), ConfigFormat.VSCODE_SETTINGS);
  }

  /** VS Code's {@code Code/User}, where other extensions' {@code globalStorage} lives too. */
  static Path userDirectory(ClientHost host) {
    return host.appData().resolve("Code/User");
  }

  @Override
  public Substitution.Style substitution(ConfigFormat format) {
    return Substitution.Style.EDITOR_WITH_INPUTS;
  }

  @Override
  public ConfigFormat.EnvValues envValues(ConfigFormat format) {
    return ConfigFormat.EnvValues.VSCODE;
  }

  @Override
  public void extract(ConfigFormat format, Map<?, ?> top, Sections in) {
    if (format == ConfigFormat.VSCODE) {
      in.servers(format, top, "", "servers");
      return;
    }
    Object mcp = top.get("mcp");
    if (mcp instanceof Map<?, ?> section) {
      in.servers(format, section, "/mcp", "servers");
    } else if (mcp != null) {
      in.problem(EntryParser.expected("/mcp", "an object", mcp).getMessage());
    }
  }

  @Override
  public Shapes.@Nullable Mapped map(
      ConfigFormat format, String name, String pointer, Map<?, ?> raw, List<String> warnings) {
    return plain(vscode(name, pointer, raw, warnings));
  }

  /**
   * VS Code appends a declared {@code PATH} to the one the server would inherit (the envFile's,
   * else kcshare's own) instead of replacing it.
   */
  @Override
  public void adjustEnv(
      ClientHost host,
      Entry entry,
      Map<String, String> declared,
      Map<String, String> fromFile,
      Map<String, String> env,
      List<String> warnings) {
    for (Map.Entry<String, String> d : declared.entrySet()) {
      String key = d.getKey();
      if (!key.toUpperCase(Locale.ROOT).equals("PATH")) {
        continue;
      }
      String base = fromFile.containsKey(key) ? fromFile.get(key) : host.env().get(key);
      if (base != null && !base.isEmpty()) {
        env.put(key, base + (host.platform() == Platform.WINDOWS ? ";" : ":") + d.getValue());
      }
      warnings.add(
          JsonInputException.child(entry.at("env"), key)
              + ": appended to the inherited "
              + key
              + ", as VS Code does");
    }
  }

  private static Entry vscode(String name, String pointer, Map<?, ?> raw, List<String> warnings) {
    Entry e = Entry.standard(name, pointer, raw);
    ignored(
        e,
        raw,
        pointer,
        "disabled",
        "ignored: VS Code has no such member and starts this server (it is disabled in VS Code's"
            + " own view)",
        warnings);
    return e;
  }
}
