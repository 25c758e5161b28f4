package dev.kcshare.host.config;

import dev.kcshare.cli.CliContext;
import dev.kcshare.host.json.JsonReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The realistic sample configurations under {@code config-samples/}, laid out in a fake home and
 * workspace the way each tool keeps them.
 */
public final class ConfigSamples {
  /** Every sample file name. */
  public static final List<String> ALL =
      List.of(
          "kiro-mcp.json",
          "kiro-workspace-mcp.json",
          "kiro-agent-kirocrew.json",
          "kiro-agent-reviewer.json",
          "kirocrew-config.json",
          "claude_desktop_config.json",
          "claude-code-mcp.json",
          "claude.json",
          "cursor-mcp.json",
          "vscode-mcp.json");

  /** The content of the fake {@code npx} on PATH: a documented fingerprint test vector. */
  public static final String NPX_SCRIPT = "#!/bin/sh\necho v1\n";

  /** {@code fp} of {@link #NPX_SCRIPT} (docs/design.md#identity-test-vectors). */
  public static final String NPX_FINGERPRINT = "667f61a069b75f1f57fc5616";

  private ConfigSamples() {}

  /**
   * A home, a workspace and a PATH directory under one root.
   *
   * @param home {@code $HOME}
   * @param workspace the working directory
   * @param bin the only PATH entry; holds an executable {@code npx}
   */
  public record Layout(Path home, Path workspace, Path bin) {
    /** HOME and PATH, plus the extra variables. */
    public Map<String, String> env(String... extra) {
      Map<String, String> env = new HashMap<>();
      env.put("HOME", home.toString());
      env.put("PATH", bin.toString());
      for (int i = 0; i + 1 < extra.length; i += 2) {
        env.put(extra[i], extra[i + 1]);
      }
      return env;
    }

    /** A context in the workspace with that environment. */
    public CliContext context(Map<String, String> env) {
      return new CliContext(
          InputStream.nullInputStream(),
          new PrintWriter(new StringWriter()),
          new PrintWriter(new StringWriter()),
          env,
          workspace);
    }

    /** Writes a file (creating directories), returning its path. */
    public Path write(Path path, String content) {
      try {
        Files.createDirectories(path.getParent());
        Files.writeString(path, content, StandardCharsets.UTF_8);
        return path;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** An empty home and workspace with the fake {@code npx}. */
  public static Layout empty(Path root) {
    try {
      Path home = Files.createDirectories(root.resolve("home"));
      Path workspace = Files.createDirectories(root.resolve("work/project"));
      Path bin = Files.createDirectories(root.resolve("bin"));
      Path npx = bin.resolve("npx");
      Files.writeString(npx, NPX_SCRIPT, StandardCharsets.UTF_8);
      Files.setPosixFilePermissions(npx, PosixFilePermissions.fromString("rwxr-xr-x"));
      return new Layout(home, workspace, bin);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Every sample where its tool keeps it (Linux layout): Kiro Crew, Kiro user and workspace, two
   * Kiro agents, Claude Desktop, {@code ~/.claude.json} with a project entry for the workspace,
   * {@code .mcp.json}, Cursor user and VS Code. No Cursor workspace file.
   */
  public static Layout full(Path root) {
    Layout l = empty(root);
    Path home = l.home();
    Path ws = l.workspace();
    l.write(home.resolve(".kiro/crew/config.json"), text("kirocrew-config.json"));
    l.write(home.resolve(".kiro/settings/mcp.json"), text("kiro-mcp.json"));
    l.write(ws.resolve(".kiro/settings/mcp.json"), text("kiro-workspace-mcp.json"));
    l.write(home.resolve(".kiro/agents/kirocrew.json"), text("kiro-agent-kirocrew.json"));
    l.write(home.resolve(".kiro/agents/reviewer.json"), text("kiro-agent-reviewer.json"));
    l.write(home.resolve(".kiro/agents/README.md"), "not an agent\n");
    l.write(
        home.resolve(".config/Claude/claude_desktop_config.json"),
        text("claude_desktop_config.json"));
    l.write(home.resolve(".claude.json"), claudeJson(ws));
    l.write(ws.resolve(".mcp.json"), text("claude-code-mcp.json"));
    l.write(home.resolve(".cursor/mcp.json"), text("cursor-mcp.json"));
    l.write(ws.resolve(".vscode/mcp.json"), text("vscode-mcp.json"));
    return l;
  }

  /** {@code claude.json} with its project entry keyed by the workspace. */
  public static String claudeJson(Path workspace) {
    return text("claude.json").replace("@WORKSPACE@", workspace.toString());
  }

  /** A sample's text. */
  public static String text(String name) {
    try (InputStream in = ConfigSamples.class.getResourceAsStream("/config-samples/" + name)) {
      if (in == null) {
        throw new IllegalArgumentException("no sample " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Every literal string value of an {@code env} or {@code headers} object in the samples (those
   * without a variable reference): text that must never be printed.
   */
  public static List<String> secretValues() {
    List<String> out = new ArrayList<>();
    for (String name : ALL) {
      Object root;
      try {
        root = JsonReader.withDepthLimit(100).parse(Jsonc.strip(text(name)));
      } catch (Exception e) {
        throw new IllegalStateException(name, e);
      }
      Deque<Object> todo = new ArrayDeque<>();
      todo.push(root);
      while (!todo.isEmpty()) {
        Object v = todo.pop();
        if (v instanceof Map<?, ?> m) {
          for (Map.Entry<?, ?> e : m.entrySet()) {
            if (("env".equals(e.getKey()) || "headers".equals(e.getKey()))
                && e.getValue() instanceof Map<?, ?> values) {
              for (Object value : values.values()) {
                if (value instanceof String s && !s.contains("${")) {
                  out.add(s);
                }
              }
            } else if (e.getValue() != null) {
              todo.push(e.getValue());
            }
          }
        } else if (v instanceof List<?> list) {
          for (Object element : list) {
            if (element != null) {
              todo.push(element);
            }
          }
        }
      }
    }
    return out;
  }
}
