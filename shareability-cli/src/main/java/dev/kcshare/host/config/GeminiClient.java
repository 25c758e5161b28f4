package dev.kcshare.host.config;

import static dev.kcshare.host.config.Shapes.at;
import static dev.kcshare.host.config.Shapes.ignored;
import static dev.kcshare.host.config.Shapes.plain;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Gemini CLI: {@code settings.json} under {@code $GEMINI_CLI_HOME} (else the home) and the
 * project's; {@code mcpServers}; {@code $VAR}, {@code ${VAR:-x}}; env values as JavaScript reads
 * them; no per-entry {@code disabled}: a server is off when {@code mcp.excluded}, {@code
 * mcp.allowed} or {@code ~/.gemini/mcp-server-enablement.json} says so.
 */
final class GeminiClient implements ClientFamily {

  @Override
  public List<ConfigFormat> formats() {
    return List.of(ConfigFormat.GEMINI);
  }

  @Override
  public void locate(ClientHost host, Locations at) {
    at.userFile("gemini-user", home(host).resolve(".gemini/settings.json"), ConfigFormat.GEMINI);
    at.workspaceFile("gemini-project", ".gemini/settings.json", ConfigFormat.GEMINI);
  }

  private static Path home(ClientHost host) {
    return host.directory(host.env().get("GEMINI_CLI_HOME"), host.home());
  }

  @Override
  public Substitution.Style substitution(ConfigFormat format) {
    return Substitution.Style.GEMINI;
  }

  @Override
  public ConfigFormat.EnvValues envValues(ConfigFormat format) {
    return ConfigFormat.EnvValues.JAVASCRIPT;
  }

  @Override
  public Shapes.@Nullable Mapped map(
      ConfigFormat format, String name, String pointer, Map<?, ?> raw, List<String> warnings) {
    return plain(gemini(name, pointer, raw, warnings));
  }

  /**
   * Gemini CLI's names that are off: in {@code mcp.excluded}, missing from a present {@code
   * mcp.allowed}, or {@code enabled: false} in {@code ~/.gemini/mcp-server-enablement.json}.
   */
  @Override
  public Set<String> disabledOutside(ClientHost host, Map<?, ?> settings, List<String> warnings) {
    Set<String> off = new HashSet<>();
    Object mcp = settings.get("mcp");
    Object byServer = settings.get("mcpServers");
    if (mcp instanceof Map<?, ?> m) {
      if (m.get("excluded") instanceof List<?> excluded) {
        for (Object o : excluded) {
          off.add(String.valueOf(o));
        }
      }
      if (m.get("allowed") instanceof List<?> allowed && byServer instanceof Map<?, ?> all) {
        Set<String> keep = new HashSet<>();
        for (Object o : allowed) {
          keep.add(String.valueOf(o));
        }
        for (Object name : all.keySet()) {
          if (!keep.contains(String.valueOf(name))) {
            off.add(String.valueOf(name));
          }
        }
      }
    }
    Path enablement = home(host).resolve(".gemini/mcp-server-enablement.json");
    ConfigFiles.Read read = ConfigFiles.read(enablement);
    if (read.ok() && read.root() instanceof Map<?, ?> states) {
      for (Map.Entry<?, ?> e : states.entrySet()) {
        if (e.getValue() instanceof Map<?, ?> state && Boolean.FALSE.equals(state.get("enabled"))) {
          off.add(String.valueOf(e.getKey()));
        }
      }
    } else if (read.problem() != null) {
      warnings.add(
          "(root): "
              + host.user(enablement)
              + " cannot be used ("
              + read.problem()
              + "); servers turned off there are listed as enabled");
    }
    return off;
  }

  @Override
  public String disabledOutsideWhy() {
    return "disabled by Gemini CLI's mcp.excluded, mcp.allowed or its enablement file";
  }

  private static Entry gemini(String name, String pointer, Map<?, ?> raw, List<String> warnings) {
    Entry e = Entry.standard(name, pointer, raw);
    ignored(
        e,
        raw,
        pointer,
        "disabled",
        "ignored: Gemini CLI disables a server through mcp.excluded or /mcp disable, not here",
        warnings);
    e.remove("envFile");
    if (raw.get("command") == null) {
      if (raw.get("httpUrl") != null) {
        e.put("url", raw.get("httpUrl"), at(pointer, "httpUrl"));
        e.put("type", "http", at(pointer, "httpUrl"));
      } else if (raw.get("url") != null && raw.get("type") == null) {
        e.put("type", "sse", at(pointer, "url"));
      } else if (raw.get("tcp") != null) {
        e.put("url", raw.get("tcp"), at(pointer, "tcp"));
        e.put("type", "tcp", at(pointer, "tcp"));
      }
    }
    return e;
  }
}
