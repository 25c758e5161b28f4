package dev.kcshare.host.config;

import dev.kcshare.core.json.CodePoints;
import dev.kcshare.core.json.JsonInputException;
import dev.kcshare.host.HostContext;
import dev.kcshare.host.records.Fingerprints;
import dev.kcshare.host.records.ServerIdentity;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Loads the MCP server configuration an operator already has (see {@code docs/config.md}).
 *
 * <p>Source order, which is also the order servers are listed in: the files named with {@code
 * --config}, in the order given; then, when discovering, the Kiro Crew configuration ({@code
 * $KIROCREW_HOME/config.json}, gateway settings only), Kiro ({@code ~/.kiro/settings/mcp.json},
 * {@code .kiro/settings/mcp.json}, {@code ~/.kiro/agents/*.json} by file name), Claude Desktop,
 * Claude Code ({@code ~/.claude.json} top level, then its project entry for the working directory,
 * then {@code .mcp.json}), Cursor ({@code ~/.cursor/mcp.json}, {@code .cursor/mcp.json}) and VS
 * Code ({@code .vscode/mcp.json}). Workspace paths are relative to the working directory. The order
 * is a listing order, not a precedence: every definition of a name is kept.
 *
 * <p>Loading never throws for a bad file: the file is reported with status {@code error} and {@link
 * HostConfig#requireValid()} refuses to go on.
 */
public final class HostConfigLoader {
  private HostConfigLoader() {}

  /** Loads on the platform kcshare runs on. */
  public static HostConfig load(HostContext ctx, ConfigRequest request) {
    return load(ctx, request, Platform.current());
  }

  /**
   * Loads as if on {@code platform} (which only moves Claude Desktop's file).
   *
   * @throws dev.kcshare.host.BadInputException for an unknown {@code --profile}
   */
  public static HostConfig load(HostContext ctx, ConfigRequest request, Platform platform) {
    ProfileSelection profile = ProfileSelection.select(request.profile(), ctx.env());
    Run run = new Run(ctx, platform);
    for (String name : request.configFiles()) {
      run.explicit(name);
    }
    if (request.discovers()) {
      run.discover();
    }
    return new HostConfig(run.files, run.servers(), run.gateway, profile);
  }

  /** One loading pass: what has been read so far. */
  private static final class Run {
    private final HostContext ctx;
    private final Platform platform;
    private final Path home;
    private final Path cwd;
    private final Fingerprints fingerprints;
    private final Map<Path, String> seen = new HashMap<>();
    private final List<ConfigFile> files = new ArrayList<>();
    private final Map<String, List<ConfiguredDefinition>> byName = new LinkedHashMap<>();
    private GatewaySettings gateway = GatewaySettings.absent();

    Run(HostContext ctx, Platform platform) {
      this.ctx = ctx;
      this.platform = platform;
      this.home = KiroCrewConfig.userHome(ctx.env()).toAbsolutePath().normalize();
      this.cwd = ctx.cwd().toAbsolutePath().normalize();
      this.fingerprints = Fingerprints.snapshot(ctx.env().get("PATH"), ctx.cwd());
    }

    List<ConfiguredServer> servers() {
      List<ConfiguredServer> out = new ArrayList<>(byName.size());
      for (Map.Entry<String, List<ConfiguredDefinition>> e : byName.entrySet()) {
        out.add(new ConfiguredServer(e.getKey(), e.getValue()));
      }
      return out;
    }

    void explicit(String name) {
      Path path;
      try {
        path = cwd.resolve(expandTilde(name)).normalize();
      } catch (InvalidPathException e) {
        files.add(
            new ConfigFile(
                name,
                cwd,
                "config",
                List.of(),
                ConfigFile.Status.ERROR,
                List.of("not a valid path"),
                List.of(),
                0));
        return;
      }
      read(name, path, "config", null);
    }

    void discover() {
      Path kiroCrew = KiroCrewConfig.configFile(ctx.env());
      read(
          user(cwd.resolve(kiroCrew).normalize()),
          cwd.resolve(kiroCrew).normalize(),
          "kirocrew",
          ConfigFormat.KIROCREW);
      userFile("kiro-user", home.resolve(".kiro/settings/mcp.json"), ConfigFormat.KIRO);
      workspaceFile("kiro-workspace", ".kiro/settings/mcp.json", ConfigFormat.KIRO);
      kiroAgents(home.resolve(".kiro/agents"));
      userFile("claude-desktop", claudeDesktopFile(), ConfigFormat.CLAUDE_DESKTOP);
      userFile("claude-code-user", home.resolve(".claude.json"), ConfigFormat.CLAUDE_CODE_USER);
      workspaceFile("claude-code-project", ".mcp.json", ConfigFormat.CLAUDE_CODE);
      userFile("cursor-user", home.resolve(".cursor/mcp.json"), ConfigFormat.CURSOR);
      workspaceFile("cursor-workspace", ".cursor/mcp.json", ConfigFormat.CURSOR);
      workspaceFile("vscode-workspace", ".vscode/mcp.json", ConfigFormat.VSCODE);
    }

    private void userFile(String origin, Path path, ConfigFormat format) {
      Path p = path.toAbsolutePath().normalize();
      read(user(p), p, origin, format);
    }

    private void workspaceFile(String origin, String relative, ConfigFormat format) {
      read(relative, cwd.resolve(relative), origin, format);
    }

    /** Claude Desktop's file: per-OS application-support directory. */
    private Path claudeDesktopFile() {
      Path dir =
          switch (platform) {
            case MACOS -> home.resolve("Library/Application Support/Claude");
            case WINDOWS -> {
              String appData = ctx.env().get("APPDATA");
              yield appData != null && !appData.isEmpty()
                  ? cwd.resolve(appData).resolve("Claude")
                  : home.resolve("AppData/Roaming/Claude");
            }
            case LINUX -> {
              // Electron puts userData under $XDG_CONFIG_HOME when it is set (absolute only).
              String xdg = ctx.env().get("XDG_CONFIG_HOME");
              yield xdg != null && !xdg.isEmpty() && Path.of(xdg).isAbsolute()
                  ? Path.of(xdg).resolve("Claude")
                  : home.resolve(".config/Claude");
            }
          };
      return dir.resolve("claude_desktop_config.json");
    }

    private void kiroAgents(Path dir) {
      String display = user(dir) + "/*.json";
      List<Path> agents = new ArrayList<>();
      try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, "*.json")) {
        for (Path p : stream) {
          if (Files.isRegularFile(p)) {
            agents.add(p);
          }
        }
      } catch (NoSuchFileException e) {
        files.add(status(display, dir, "kiro-agent", ConfigFile.Status.MISSING, List.of()));
        return;
      } catch (IOException | SecurityException e) {
        if (!Files.exists(dir)) {
          files.add(status(display, dir, "kiro-agent", ConfigFile.Status.MISSING, List.of()));
        } else {
          files.add(
              status(
                  display,
                  dir,
                  "kiro-agent",
                  ConfigFile.Status.ERROR,
                  List.of("cannot list the directory: " + e.getClass().getSimpleName())));
        }
        return;
      }
      if (agents.isEmpty()) {
        files.add(status(display, dir, "kiro-agent", ConfigFile.Status.MISSING, List.of()));
        return;
      }
      agents.sort(
          (a, b) -> CodePoints.compare(a.getFileName().toString(), b.getFileName().toString()));
      for (Path agent : agents) {
        Path p = agent.toAbsolutePath().normalize();
        read(user(p), p, "kiro-agent", ConfigFormat.KIRO_AGENT);
      }
    }

    /**
     * Reads one file.
     *
     * @param format the format of a discovered file; null to detect it (a named file)
     */
    private void read(String display, Path path, String origin, @Nullable ConfigFormat format) {
      Path key = identityOf(path);
      String earlier = seen.get(key);
      if (earlier != null) {
        files.add(
            new ConfigFile(
                display,
                path,
                origin,
                List.of(),
                ConfigFile.Status.DUPLICATE,
                List.of(),
                List.of("same file as " + earlier + "; read once"),
                0));
        return;
      }
      ConfigFiles.Read read = ConfigFiles.read(path);
      if (read.missing()) {
        if (format == null) {
          files.add(
              status(display, path, origin, ConfigFile.Status.ERROR, List.of("no such file")));
        } else {
          files.add(status(display, path, origin, ConfigFile.Status.MISSING, List.of()));
        }
        return;
      }
      seen.put(key, display);
      if (read.problem() != null) {
        files.add(status(display, path, origin, ConfigFile.Status.ERROR, List.of(read.problem())));
        return;
      }
      Object root = read.root();
      if (!(root instanceof Map<?, ?> top)) {
        String problem = EntryParser.expected("", "an object", root).getMessage();
        files.add(status(display, path, origin, ConfigFile.Status.ERROR, List.of(problem)));
        return;
      }
      List<ConfigFormat> formats = format != null ? List.of(format) : detect(path, top);
      if (formats.isEmpty()) {
        files.add(
            status(
                display,
                path,
                origin,
                ConfigFile.Status.ERROR,
                List.of(
                    "(root): expected an \"mcpServers\" or \"servers\" object, or an"
                        + " \"mcp_gateway\" section; found none")));
        return;
      }
      FileResult result = new FileResult(display, path);
      for (ConfigFormat f : formats) {
        extract(result, f, top);
      }
      for (ConfiguredDefinition d : result.definitions) {
        byName.computeIfAbsent(d.name(), k -> new ArrayList<>()).add(d);
      }
      files.add(
          new ConfigFile(
              display,
              path,
              origin,
              formats,
              result.problems.isEmpty() ? ConfigFile.Status.READ : ConfigFile.Status.ERROR,
              result.problems,
              result.warnings,
              result.definitions.size()));
    }

    private void extract(FileResult result, ConfigFormat format, Map<?, ?> top) {
      switch (format) {
        case KIROCREW -> gateway(result, top);
        case VSCODE -> servers(result, format, top, "", "servers");
        case CLAUDE_CODE_USER -> {
          servers(result, format, top, "", "mcpServers");
          project(result, top);
        }
        default -> servers(result, format, top, "", "mcpServers");
      }
    }

    private void gateway(FileResult result, Map<?, ?> top) {
      GatewaySettings settings;
      try {
        settings = GatewaySettings.fromDocument(top, result.display);
      } catch (JsonInputException e) {
        result.problems.add(e.getMessage());
        return;
      }
      if (!settings.present()) {
        if (gateway.source() == null) {
          gateway = settings;
        }
        return;
      }
      if (gateway.present()) {
        result.warnings.add(
            "/mcp_gateway: ignored; the gateway settings were already read from "
                + gateway.source());
        return;
      }
      gateway = settings;
      if ("poolable_servers".equals(settings.rosterSource())) {
        result.warnings.add(
            "/mcp_gateway/poolable_servers: deprecated roster alias in use; stub_servers replaces"
                + " it");
      }
    }

    /** Claude Code's local scope: {@code projects.<working directory>.mcpServers}. */
    private void project(FileResult result, Map<?, ?> top) {
      Object projects = top.get("projects");
      if (projects == null) {
        return;
      }
      if (!(projects instanceof Map<?, ?> byPath)) {
        result.problems.add(EntryParser.expected("/projects", "an object", projects).getMessage());
        return;
      }
      for (String candidate : projectKeys()) {
        if (byPath.containsKey(candidate)) {
          String pointer = JsonInputException.child("/projects", candidate);
          Object entry = byPath.get(candidate);
          if (entry == null) {
            return;
          }
          if (!(entry instanceof Map<?, ?> project)) {
            result.problems.add(EntryParser.expected(pointer, "an object", entry).getMessage());
            return;
          }
          servers(result, ConfigFormat.CLAUDE_CODE_USER, project, pointer, "mcpServers");
          return;
        }
      }
    }

    /** The keys Claude Code may have used for this directory: as is, real path, forward slashes. */
    private List<String> projectKeys() {
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

    private void servers(
        FileResult result, ConfigFormat format, Map<?, ?> container, String base, String member) {
      Object section = container.get(member);
      if (section == null) {
        return;
      }
      String sectionPointer = JsonInputException.child(base, member);
      if (!(section instanceof Map<?, ?> byServer)) {
        result.problems.add(
            EntryParser.expected(sectionPointer, "an object", section).getMessage());
        return;
      }
      Substitution substitution =
          new Substitution(
              format.substitution(),
              new Substitution.Values(ctx.env(), cwd, home, platform.pathSeparator()));
      for (Map.Entry<?, ?> e : byServer.entrySet()) {
        String name = String.valueOf(e.getKey());
        String pointer = JsonInputException.child(sectionPointer, name);
        EntryParser.Parsed parsed;
        try {
          parsed = EntryParser.parse(name, pointer, e.getValue(), substitution, result.warnings);
        } catch (JsonInputException ex) {
          substitution.drain();
          result.problems.add(ex.getMessage());
          continue;
        }
        List<UnresolvedVariable> unresolved = new ArrayList<>();
        for (Substitution.Found f : parsed.unresolved()) {
          unresolved.add(
              new UnresolvedVariable(name, result.display, f.pointer(), f.reference(), f.reason()));
        }
        result.definitions.add(
            new ConfiguredDefinition(
                parsed.definition(),
                result.display,
                result.path,
                pointer,
                format,
                parsed.stdio(),
                parsed.stdio() ? identity(parsed.definition().command(), parsed) : null,
                unresolved));
      }
    }

    /** The verdict-cache identity (records §7.4) of a stdio definition. */
    private String identity(@Nullable String command, EntryParser.Parsed parsed) {
      // The snapshot fingerprints answer a command or argument seen before in this load without
      // touching the file system again.
      return ServerIdentity.cacheIdentity(
          command == null ? "" : command,
          parsed.definition().args(),
          parsed.definition().env(),
          fingerprints);
    }

    /** A named file's formats, from its members (and, for the flavour, its name). */
    private static List<ConfigFormat> detect(Path path, Map<?, ?> top) {
      List<ConfigFormat> out = new ArrayList<>();
      if (top.containsKey("mcp_gateway")) {
        out.add(ConfigFormat.KIROCREW);
      }
      String fileName = path.getFileName() == null ? "" : path.getFileName().toString();
      String parent = nameOf(path.getParent());
      String grandparent = path.getParent() == null ? "" : nameOf(path.getParent().getParent());
      if (fileName.equals(".claude.json") || top.get("projects") instanceof Map) {
        out.add(ConfigFormat.CLAUDE_CODE_USER);
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
        } else {
          out.add(ConfigFormat.MCP_SERVERS);
        }
      } else if (top.containsKey("servers")) {
        out.add(ConfigFormat.VSCODE);
      }
      return out;
    }

    private static String nameOf(@Nullable Path p) {
      return p == null || p.getFileName() == null ? "" : p.getFileName().toString();
    }

    /** The same file reached twice (a workspace that is the home, a named discovered file). */
    private static Path identityOf(Path path) {
      try {
        return path.toRealPath();
      } catch (IOException | SecurityException e) {
        return path.toAbsolutePath().normalize();
      }
    }

    private Path expandTilde(String name) {
      if (name.equals("~")) {
        return home;
      }
      if (name.startsWith("~/")) {
        return home.resolve(name.substring(2));
      }
      return Path.of(name);
    }

    /** A user-level path as {@code ~/...} when it is under the home. */
    private String user(Path path) {
      if (path.startsWith(home) && !path.equals(home)) {
        return "~/" + home.relativize(path).toString().replace('\\', '/');
      }
      return path.toString();
    }

    private static ConfigFile status(
        String display, Path path, String origin, ConfigFile.Status status, List<String> problems) {
      return new ConfigFile(display, path, origin, List.of(), status, problems, List.of(), 0);
    }
  }

  /** What one file produced. */
  private static final class FileResult {
    final String display;
    final Path path;
    final List<String> problems = new ArrayList<>();
    final List<String> warnings = new ArrayList<>();
    final List<ConfiguredDefinition> definitions = new ArrayList<>();

    FileResult(String display, Path path) {
      this.display = display;
      this.path = path;
    }
  }
}
