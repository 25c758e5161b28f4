package dev.kcshare.host.config;

import static dev.kcshare.host.config.Shapes.at;
import static dev.kcshare.host.config.Shapes.enabled;
import static dev.kcshare.host.config.Shapes.plain;
import static dev.kcshare.host.config.Shapes.putIfPresent;

import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Zed: {@code settings.json} under {@code $XDG_CONFIG_HOME/zed} and the project's {@code
 * .zed/settings.json}; {@code context_servers} in any of its three entry forms; {@code enabled:
 * false} disables; string env values only.
 */
final class ZedClient implements ClientFamily {

  @Override
  public List<ConfigFormat> formats() {
    return List.of(ConfigFormat.ZED);
  }

  @Override
  public void locate(ClientHost host, Locations at) {
    at.userFile("zed-user", host.xdgConfig().resolve("zed/settings.json"), ConfigFormat.ZED);
    at.workspaceFile("zed-project", ".zed/settings.json", ConfigFormat.ZED);
  }

  @Override
  public ConfigFormat.EnvValues envValues(ConfigFormat format) {
    return ConfigFormat.EnvValues.STRINGS;
  }

  @Override
  public void extract(ConfigFormat format, Map<?, ?> top, Sections in) {
    in.servers(format, top, "", "context_servers");
  }

  @Override
  public Shapes.@Nullable Mapped map(
      ConfigFormat format, String name, String pointer, Map<?, ?> raw, List<String> warnings) {
    return plain(zed(name, pointer, raw, warnings));
  }

  private static @Nullable Entry zed(
      String name, String pointer, Map<?, ?> raw, List<String> warnings) {
    Entry e = new Entry(name, pointer);
    enabled(e, raw, pointer, false);
    Object command = raw.get("command");
    Object source = raw.get("source");
    if (command instanceof Map<?, ?> nested) {
      // The earliest form: {"command": {"path", "args", "env"}, "settings": {}}.
      String c = at(pointer, "command");
      putIfPresent(e, nested, c, "path", "command");
      putIfPresent(e, nested, c, "args", "args");
      putIfPresent(e, nested, c, "env", "env");
      return e;
    }
    if (command != null) {
      e.put("command", command, at(pointer, "command"));
      putIfPresent(e, raw, pointer, "args", "args");
      putIfPresent(e, raw, pointer, "env", "env");
      return e;
    }
    if (raw.get("url") != null) {
      e.put("url", raw.get("url"), at(pointer, "url"));
      e.put("type", "http", at(pointer, "url"));
      return e;
    }
    if ("extension".equals(source) || raw.containsKey("settings")) {
      e.put("type", "extension", at(pointer, source != null ? "source" : "settings"));
      warnings.add(
          pointer
              + ": provided by a Zed extension: its command is not in this file, so kcshare"
              + " cannot start it");
      return e;
    }
    return e;
  }
}
