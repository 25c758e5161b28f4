package dev.kcshare.host.config;

import static dev.kcshare.host.config.Shapes.at;
import static dev.kcshare.host.config.Shapes.plain;

import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Windsurf: {@code ~/.codeium/windsurf/mcp_config.json}; {@code mcpServers}, {@code serverUrl} as
 * {@code url}; {@code ${env:X}}.
 */
final class WindsurfClient implements ClientFamily {

  @Override
  public List<ConfigFormat> formats() {
    return List.of(ConfigFormat.WINDSURF);
  }

  @Override
  public void locate(ClientHost host, Locations at) {
    at.userFile(
        "windsurf",
        host.home().resolve(".codeium/windsurf/mcp_config.json"),
        ConfigFormat.WINDSURF);
  }

  @Override
  public Substitution.Style substitution(ConfigFormat format) {
    return Substitution.Style.WINDSURF;
  }

  @Override
  public Shapes.@Nullable Mapped map(
      ConfigFormat format, String name, String pointer, Map<?, ?> raw, List<String> warnings) {
    return plain(windsurf(name, pointer, raw));
  }

  private static Entry windsurf(String name, String pointer, Map<?, ?> raw) {
    Entry e = Entry.standard(name, pointer, raw);
    if (raw.get("url") == null && raw.get("serverUrl") != null) {
      e.put("url", raw.get("serverUrl"), at(pointer, "serverUrl"));
    }
    return e;
  }
}
