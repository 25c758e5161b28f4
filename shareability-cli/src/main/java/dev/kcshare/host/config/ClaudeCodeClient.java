package dev.kcshare.host.config;

import dev.kcshare.core.json.internal.JsonInputException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Claude Code: {@code ~/.claude.json} (top-level {@code mcpServers} and the local scope, {@code
 * projects.<working directory>.mcpServers}, verbatim) and the project's {@code .mcp.json} ({@code
 * ${VAR}} and {@code ${VAR:-default}} expanded).
 */
final class ClaudeCodeClient implements ClientFamily {

  @Override
  public List<ConfigFormat> formats() {
    return List.of(ConfigFormat.CLAUDE_CODE, ConfigFormat.CLAUDE_CODE_USER);
  }

  @Override
  public void locate(ClientHost host, Locations at) {
    at.userFile(
        "claude-code-user", host.home().resolve(".claude.json"), ConfigFormat.CLAUDE_CODE_USER);
    at.workspaceFile("claude-code-project", ".mcp.json", ConfigFormat.CLAUDE_CODE);
  }

  @Override
  public Substitution.Style substitution(ConfigFormat format) {
    return format == ConfigFormat.CLAUDE_CODE ? Substitution.Style.SHELL : Substitution.Style.NONE;
  }

  @Override
  public void extract(ConfigFormat format, Map<?, ?> top, Sections in) {
    in.servers(format, top, "", "mcpServers");
    if (format == ConfigFormat.CLAUDE_CODE_USER) {
      project(in, top);
    }
  }

  /** Claude Code's local scope: {@code projects.<working directory>.mcpServers}. */
  private static void project(Sections in, Map<?, ?> top) {
    Object projects = top.get("projects");
    if (projects == null) {
      return;
    }
    if (!(projects instanceof Map<?, ?> byPath)) {
      in.problem(EntryParser.expected("/projects", "an object", projects).getMessage());
      return;
    }
    for (String candidate : projectKeys(in.host().cwd())) {
      if (byPath.containsKey(candidate)) {
        String pointer = JsonInputException.child("/projects", candidate);
        Object entry = byPath.get(candidate);
        if (entry == null) {
          return;
        }
        if (!(entry instanceof Map<?, ?> project)) {
          in.problem(EntryParser.expected(pointer, "an object", entry).getMessage());
          return;
        }
        in.servers(ConfigFormat.CLAUDE_CODE_USER, project, pointer, "mcpServers");
        return;
      }
    }
  }

  /** The keys Claude Code may have used for this directory: as is, real path, forward slashes. */
  private static List<String> projectKeys(Path cwd) {
    List<String> keys = new ArrayList<>();
    keys.add(cwd.toString());
    try {
      keys.add(cwd.toRealPath().toString());
    } catch (IOException | SecurityException e) {
      // the plain form is all there is
    }
    for (String k : List.copyOf(keys)) {
      keys.add(k.replace('\\', '/'));
    }
    return keys.stream().distinct().toList();
  }
}
