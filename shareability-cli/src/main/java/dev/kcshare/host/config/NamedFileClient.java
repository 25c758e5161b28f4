package dev.kcshare.host.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A file named with {@code --config} that no client claims ({@code mcpServers}, values verbatim),
 * and definitions an embedding gateway hands over in memory: never discovered.
 */
final class NamedFileClient implements ClientFamily {

  @Override
  public List<ConfigFormat> formats() {
    return List.of(ConfigFormat.MCP_SERVERS, ConfigFormat.EMBEDDED);
  }

  @Override
  public void locate(ClientHost host, Locations at) {
    // named with --config only
  }

  /** A named file's syntax, from its extension. */
  static FileSyntax syntaxOf(Path path) {
    String name = path.getFileName() == null ? "" : path.getFileName().toString();
    String lower = name.toLowerCase(Locale.ROOT);
    if (lower.endsWith(".toml")) {
      return FileSyntax.TOML;
    }
    if (lower.endsWith(".yaml") || lower.endsWith(".yml")) {
      return FileSyntax.YAML;
    }
    return FileSyntax.JSON;
  }

  /** A named file's formats, from its members (and, for the flavour, its name). */
  static List<ConfigFormat> formatsOf(Path path, Map<?, ?> top) {
    List<ConfigFormat> out = new ArrayList<>();
    if (top.containsKey("mcp_gateway")) {
      out.add(ConfigFormat.KIROCREW);
    }
    String fileName = path.getFileName() == null ? "" : path.getFileName().toString();
    String parent = nameOf(path.getParent());
    String grandparent = path.getParent() == null ? "" : nameOf(path.getParent().getParent());
    if (top.containsKey("mcp_servers")) {
      out.add(ConfigFormat.CODEX);
    } else if (top.containsKey("context_servers")) {
      out.add(ConfigFormat.ZED);
    } else if (top.containsKey("extensions") && detectsYaml(fileName)) {
      out.add(ConfigFormat.GOOSE);
    } else if (top.get("mcpServers") instanceof List && detectsYaml(fileName)) {
      out.add(ConfigFormat.CONTINUE);
    } else if (fileName.equals(".claude.json") || top.get("projects") instanceof Map) {
      out.add(ConfigFormat.CLAUDE_CODE_USER);
    } else if (top.get("mcp") instanceof Map<?, ?> mcp && mcp.containsKey("servers")) {
      out.add(ConfigFormat.VSCODE_SETTINGS);
    } else if (top.get("mcp") instanceof Map && fileName.startsWith("opencode")) {
      out.add(ConfigFormat.OPENCODE);
    } else if (oneMcp(parent, top)) {
      out.add(ConfigFormat.ONE_MCP);
    } else if (top.containsKey("mcpServers")
        && (fileName.equals("mcp_settings.json")
            || top.containsKey("systemConfig")
            || top.get("users") instanceof List)) {
      out.add(ConfigFormat.MCPHUB);
    } else if (top.containsKey("mcpServers")) {
      if (fileName.equals("claude_desktop_config.json")) {
        out.add(ConfigFormat.CLAUDE_DESKTOP);
      } else if (fileName.equals(".mcp.json")) {
        out.add(ConfigFormat.CLAUDE_CODE);
      } else if (parent.equals(".cursor") && fileName.equals("mcp.json")) {
        out.add(ConfigFormat.CURSOR);
      } else if (grandparent.equals(".kiro") && parent.equals("settings")) {
        out.add(ConfigFormat.KIRO);
      } else if (grandparent.equals(".kiro") && parent.equals("agents")) {
        out.add(ConfigFormat.KIRO_AGENT);
      } else if (oneMcpEntries(top)) {
        out.add(ConfigFormat.ONE_MCP);
      } else {
        out.add(ConfigFormat.MCP_SERVERS);
      }
    } else if (top.containsKey("servers")) {
      out.add(ConfigFormat.VSCODE);
    }
    return out;
  }

  /**
   * A 1MCP file: one with {@code mcpTemplates} or {@code serverDefaults}, or {@code mcpServers} in
   * a directory named {@code 1mcp} (where 1MCP keeps it). A file no client's name claims is also
   * read as 1MCP when an entry uses what only 1MCP reads ({@link #oneMcpEntries}).
   */
  private static boolean oneMcp(String parent, Map<?, ?> top) {
    if (top.containsKey("mcpTemplates") || top.containsKey("serverDefaults")) {
      return true;
    }
    if (!(top.get("mcpServers") instanceof Map<?, ?> servers)) {
      return false;
    }
    return parent.equals("1mcp");
  }

  /** Whether an entry uses what only 1MCP reads, for a file no client's name claims. */
  private static boolean oneMcpEntries(Map<?, ?> top) {
    if (!(top.get("mcpServers") instanceof Map<?, ?> servers)) {
      return false;
    }
    for (Object entry : servers.values()) {
      if (entry instanceof Map<?, ?> e
          && (e.containsKey("inheritParentEnv")
              || e.containsKey("envFilter")
              || e.get("env") instanceof List)) {
        return true;
      }
    }
    return false;
  }

  private static boolean detectsYaml(String fileName) {
    String lower = fileName.toLowerCase(Locale.ROOT);
    return lower.endsWith(".yaml") || lower.endsWith(".yml");
  }

  private static String nameOf(@Nullable Path p) {
    return p == null || p.getFileName() == null ? "" : p.getFileName().toString();
  }
}
