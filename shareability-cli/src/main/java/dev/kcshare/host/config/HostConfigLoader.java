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
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Loads the MCP server configuration an operator already has (see {@code docs/config.md}).
 *
 * <p>Source order, which is also the order servers are listed in: the files named with {@code
 * --config}, in the order given; then, when discovering, the Kiro Crew configuration ({@code
 * $KIROCREW_HOME/config.json}, gateway settings only), Kiro, Claude Desktop, Claude Code, Cursor
 * and VS Code's workspace file, then VS Code's user files, Windsurf, Cline, Roo Code, Gemini CLI,
 * Codex CLI, Zed, Continue, Goose, LM Studio, Amazon Q Developer CLI and opencode (the table in
 * {@code docs/config.md}). Workspace paths are relative to the working directory. The order is a
 * listing order, not a precedence: every definition of a name is kept.
 *
 * <p>Loading never throws for a bad file. A named file that cannot be used is reported with status
 * {@code error} and {@link HostConfig#requireValid()} refuses to go on; a discovered one is {@code
 * skipped}: its servers are left out and every other file still counts.
 */
public final class HostConfigLoader {
  private HostConfigLoader() {}

  /** Loads on the platform kcshare runs on. */
  public static HostConfig load(HostContext ctx, ConfigRequest request) {
    return load(ctx, request, Platform.current());
  }

  /**
   * Loads as if on {@code platform} (which only moves Claude Desktop's and VS Code's files).
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
    private final List<ConfiguredDefinition> definitions = new ArrayList<>();
    private GatewaySettings gateway = GatewaySettings.absent();
    private @Nullable Map<String, String> continueSecrets;
    private @Nullable Map<?, ?> codexUser;

    Run(HostContext ctx, Platform platform) {
      this.ctx = ctx;
      this.platform = platform;
      this.home = KiroCrewConfig.userHome(ctx.env()).toAbsolutePath().normalize();
      this.cwd = ctx.cwd().toAbsolutePath().normalize();
      this.fingerprints = Fingerprints.snapshot(ctx.env().get("PATH"), ctx.cwd());
    }

    List<ConfiguredServer> servers() {
      return ConfiguredServer.group(definitions);
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
      directory(
          "kiro-agent", home.resolve(".kiro/agents"), List.of(".json"), ConfigFormat.KIRO_AGENT);
      userFile("claude-desktop", claudeDesktopFile(), ConfigFormat.CLAUDE_DESKTOP);
      userFile("claude-code-user", home.resolve(".claude.json"), ConfigFormat.CLAUDE_CODE_USER);
      workspaceFile("claude-code-project", ".mcp.json", ConfigFormat.CLAUDE_CODE);
      userFile("cursor-user", home.resolve(".cursor/mcp.json"), ConfigFormat.CURSOR);
      workspaceFile("cursor-workspace", ".cursor/mcp.json", ConfigFormat.CURSOR);
      workspaceFile("vscode-workspace", ".vscode/mcp.json", ConfigFormat.VSCODE);

      Path vscodeUser = appData().resolve("Code/User");
      userFile("vscode-user", vscodeUser.resolve("mcp.json"), ConfigFormat.VSCODE);
      profiles(vscodeUser.resolve("profiles"));
      userFile(
          "vscode-settings", vscodeUser.resolve("settings.json"), ConfigFormat.VSCODE_SETTINGS);
      userFile(
          "windsurf", home.resolve(".codeium/windsurf/mcp_config.json"), ConfigFormat.WINDSURF);
      userFile("cline", clineFile(), ConfigFormat.CLINE);
      userFile(
          "cline-vscode",
          vscodeUser.resolve(
              "globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json"),
          ConfigFormat.CLINE);
      userFile(
          "cline-vscode",
          home.resolve("Documents/Cline/MCP/cline_mcp_settings.json"),
          ConfigFormat.CLINE);
      userFile(
          "roo-user",
          vscodeUser.resolve("globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json"),
          ConfigFormat.ROO);
      workspaceFile("roo-project", ".roo/mcp.json", ConfigFormat.ROO);
      userFile("gemini-user", geminiHome().resolve(".gemini/settings.json"), ConfigFormat.GEMINI);
      workspaceFile("gemini-project", ".gemini/settings.json", ConfigFormat.GEMINI);
      userFile("codex-user", codexHome().resolve("config.toml"), ConfigFormat.CODEX);
      workspaceFile("codex-project", ".codex/config.toml", ConfigFormat.CODEX);
      userFile("zed-user", xdgConfig().resolve("zed/settings.json"), ConfigFormat.ZED);
      workspaceFile("zed-project", ".zed/settings.json", ConfigFormat.ZED);
      Path continueHome = continueHome();
      userFile("continue-user", continueHome.resolve("config.yaml"), ConfigFormat.CONTINUE);
      directory(
          "continue-global-block",
          continueHome.resolve("mcpServers"),
          List.of(".yaml", ".yml"),
          ConfigFormat.CONTINUE_BLOCK);
      workspaceDirectory(
          "continue-block",
          ".continue/mcpServers",
          List.of(".yaml", ".yml"),
          ConfigFormat.CONTINUE_BLOCK);
      directory(
          "continue-json",
          continueHome.resolve("mcpServers"),
          List.of(".json"),
          ConfigFormat.CONTINUE_JSON);
      workspaceDirectory(
          "continue-json", ".continue/mcpServers", List.of(".json"), ConfigFormat.CONTINUE_JSON);
      userFile("goose", xdgConfig().resolve("goose/config.yaml"), ConfigFormat.GOOSE);
      userFile("lmstudio", home.resolve(".lmstudio/mcp.json"), ConfigFormat.LMSTUDIO);
      userFile("amazonq-user", home.resolve(".aws/amazonq/mcp.json"), ConfigFormat.AMAZONQ);
      workspaceFile("amazonq-workspace", ".amazonq/mcp.json", ConfigFormat.AMAZONQ);
      directory(
          "amazonq-agent",
          home.resolve(".aws/amazonq/cli-agents"),
          List.of(".json"),
          ConfigFormat.AMAZONQ_AGENT);
      workspaceDirectory(
          "amazonq-agent", ".amazonq/cli-agents", List.of(".json"), ConfigFormat.AMAZONQ_AGENT);
      Path opencode = xdgConfig().resolve("opencode");
      for (String name : List.of("config.json", "opencode.json", "opencode.jsonc")) {
        userFile("opencode-user", opencode.resolve(name), ConfigFormat.OPENCODE);
      }
      String custom = ctx.env().get("OPENCODE_CONFIG");
      if (custom != null && !custom.isEmpty()) {
        userFile("opencode-user", cwd.resolve(expandTilde(custom)), ConfigFormat.OPENCODE);
      }
      for (String name :
          List.of(
              "opencode.json",
              "opencode.jsonc",
              ".opencode/opencode.json",
              ".opencode/opencode.jsonc")) {
        workspaceFile("opencode-project", name, ConfigFormat.OPENCODE);
      }
    }

    private void userFile(String origin, Path path, ConfigFormat format) {
      Path p = path.toAbsolutePath().normalize();
      read(user(p), p, origin, format);
    }

    private void workspaceFile(String origin, String relative, ConfigFormat format) {
      read(relative, cwd.resolve(relative), origin, format);
    }

    // ---------------------------------------------------------------- locations

    /** A variable's value, or null when it is unset or empty. */
    private static @Nullable String nonEmpty(@Nullable String v) {
      return v == null || v.isEmpty() ? null : v;
    }

    /** {@code $XDG_CONFIG_HOME} when set (absolute), else {@code ~/.config}. */
    private Path xdgConfig() {
      String xdg = nonEmpty(ctx.env().get("XDG_CONFIG_HOME"));
      return xdg != null && Path.of(xdg).isAbsolute() ? Path.of(xdg) : home.resolve(".config");
    }

    /** Where Electron applications keep per-user data: VS Code's {@code Code/User} lives there. */
    private Path appData() {
      return switch (platform) {
        case MACOS -> home.resolve("Library/Application Support");
        case WINDOWS -> {
          String appData = nonEmpty(ctx.env().get("APPDATA"));
          yield appData != null ? cwd.resolve(appData) : home.resolve("AppData/Roaming");
        }
        case LINUX -> xdgConfig();
      };
    }

    /** Claude Desktop's file: per-OS application-support directory. */
    private Path claudeDesktopFile() {
      return appData().resolve("Claude").resolve("claude_desktop_config.json");
    }

    /** Cline's shared settings file and its overrides, first set wins. */
    private Path clineFile() {
      String file = nonEmpty(ctx.env().get("CLINE_MCP_SETTINGS_PATH"));
      if (file != null) {
        return cwd.resolve(expandTilde(file));
      }
      String data = nonEmpty(ctx.env().get("CLINE_DATA_DIR"));
      if (data != null) {
        return cwd.resolve(expandTilde(data)).resolve("settings/cline_mcp_settings.json");
      }
      String dir = nonEmpty(ctx.env().get("CLINE_DIR"));
      Path root = dir != null ? cwd.resolve(expandTilde(dir)) : home.resolve(".cline");
      return root.resolve("data/settings/cline_mcp_settings.json");
    }

    private Path geminiHome() {
      String h = nonEmpty(ctx.env().get("GEMINI_CLI_HOME"));
      return h != null ? cwd.resolve(expandTilde(h)) : home;
    }

    private Path codexHome() {
      String h = nonEmpty(ctx.env().get("CODEX_HOME"));
      return h != null ? cwd.resolve(expandTilde(h)) : home.resolve(".codex");
    }

    private Path continueHome() {
      String h = nonEmpty(ctx.env().get("CONTINUE_GLOBAL_DIR"));
      return h != null ? cwd.resolve(expandTilde(h)) : home.resolve(".continue");
    }

    /** VS Code's profiles: {@code profiles/<id>/mcp.json}, by profile directory name. */
    private void profiles(Path dir) {
      List<Path> found = new ArrayList<>();
      String display = user(dir.toAbsolutePath().normalize()) + "/*/mcp.json";
      if (!exists(dir)) {
        files.add(status(display, dir, "vscode-profile", ConfigFile.Status.MISSING, List.of()));
        return;
      }
      try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
        for (Path p : stream) {
          if (Files.isRegularFile(p.resolve("mcp.json"))) {
            found.add(p.resolve("mcp.json"));
          }
        }
      } catch (NoSuchFileException | NotDirectoryException e) {
        files.add(status(display, dir, "vscode-profile", ConfigFile.Status.MISSING, List.of()));
        return;
      } catch (IOException | SecurityException e) {
        files.add(
            status(
                display,
                dir,
                "vscode-profile",
                ConfigFile.Status.SKIPPED,
                List.of("cannot list the directory: " + ConfigFiles.reason(e))));
        return;
      }
      if (found.isEmpty()) {
        files.add(status(display, dir, "vscode-profile", ConfigFile.Status.MISSING, List.of()));
        return;
      }
      found.sort(
          (a, b) ->
              CodePoints.compare(
                  a.getParent().getFileName().toString(), b.getParent().getFileName().toString()));
      for (Path p : found) {
        userFile("vscode-profile", p, ConfigFormat.VSCODE);
      }
    }

    /** Every {@code *.ext} file of a user directory, by file name (code point order). */
    private void directory(String origin, Path dir, List<String> extensions, ConfigFormat format) {
      Path abs = dir.toAbsolutePath().normalize();
      directory(origin, abs, user(abs), extensions, format);
    }

    /** Every {@code *.ext} file of a workspace directory, shown relative to the workspace. */
    private void workspaceDirectory(
        String origin, String relative, List<String> extensions, ConfigFormat format) {
      directory(origin, cwd.resolve(relative), relative, extensions, format);
    }

    private void directory(
        String origin, Path dir, String base, List<String> extensions, ConfigFormat format) {
      String display =
          base
              + "/*"
              + (extensions.size() == 1
                  ? extensions.get(0)
                  : "{" + String.join(",", extensions) + "}");
      if (!exists(dir)) {
        files.add(status(display, dir, origin, ConfigFile.Status.MISSING, List.of()));
        return;
      }
      List<Path> found = new ArrayList<>();
      try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
        for (Path p : stream) {
          String name = p.getFileName().toString();
          if (extensions.stream().anyMatch(name::endsWith) && Files.isRegularFile(p)) {
            found.add(p);
          }
        }
      } catch (NoSuchFileException | NotDirectoryException e) {
        files.add(status(display, dir, origin, ConfigFile.Status.MISSING, List.of()));
        return;
      } catch (IOException | SecurityException e) {
        if (!Files.exists(dir)) {
          files.add(status(display, dir, origin, ConfigFile.Status.MISSING, List.of()));
        } else {
          files.add(
              status(
                  display,
                  dir,
                  origin,
                  ConfigFile.Status.SKIPPED,
                  List.of("cannot list the directory: " + ConfigFiles.reason(e))));
        }
        return;
      }
      if (found.isEmpty()) {
        files.add(status(display, dir, origin, ConfigFile.Status.MISSING, List.of()));
        return;
      }
      found.sort(
          (a, b) -> CodePoints.compare(a.getFileName().toString(), b.getFileName().toString()));
      for (Path p : found) {
        Path file = p.toAbsolutePath().normalize();
        read(base + "/" + file.getFileName(), file, origin, format);
      }
    }

    // ---------------------------------------------------------------- reading

    /**
     * Reads one file.
     *
     * @param format the format of a discovered file; null to detect it (a named file)
     */
    private void read(String display, Path path, String origin, @Nullable ConfigFormat format) {
      if (!exists(path)) {
        // Most discovered locations do not exist on a given host: answer those with one stat,
        // without the exceptions that opening a missing file would throw.
        files.add(
            format == null
                ? status(display, path, origin, ConfigFile.Status.ERROR, List.of("no such file"))
                : status(display, path, origin, ConfigFile.Status.MISSING, List.of()));
        return;
      }
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
      ConfigFile.Status bad = format == null ? ConfigFile.Status.ERROR : ConfigFile.Status.SKIPPED;
      FileSyntax syntax = format != null ? format.syntax() : detectSyntax(path);
      ConfigFiles.Read read = ConfigFiles.read(path, syntax);
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
        files.add(status(display, path, origin, bad, List.of(read.problem())));
        return;
      }
      Object root = read.root();
      if (!(root instanceof Map<?, ?> top)) {
        String problem = EntryParser.expected("", "an object", root).getMessage();
        files.add(status(display, path, origin, bad, List.of(problem)));
        return;
      }
      List<ConfigFormat> formats = format != null ? List.of(format) : detect(path, top);
      if (formats.isEmpty()) {
        files.add(
            status(
                display,
                path,
                origin,
                bad,
                List.of(
                    "(root): expected mcpServers, servers, mcp_servers, context_servers,"
                        + " extensions or mcp (a client's servers) or mcp_gateway (Kiro Crew);"
                        + " found none of them")));
        return;
      }
      FileResult result = new FileResult(display, path);
      GatewaySettings before = gateway;
      for (ConfigFormat f : formats) {
        extract(result, f, top);
      }
      if (!result.problems.isEmpty() && bad == ConfigFile.Status.SKIPPED) {
        // A file read in part is not read: none of its servers or settings count.
        gateway = before;
        files.add(
            new ConfigFile(
                display, path, origin, formats, bad, result.problems, result.warnings, 0));
        return;
      }
      definitions.addAll(result.definitions);
      if (format == ConfigFormat.CODEX && origin.equals("codex-user")) {
        codexUser = top;
      }
      if (origin.equals("codex-project") && !result.definitions.isEmpty() && !codexTrusts()) {
        result.warnings.add(
            "(root): Codex reads this file only in a trusted project, and the working directory"
                + " is not marked trusted in ~/.codex/config.toml; listed all the same");
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

    /** Whether anything is at {@code path}, by one {@code stat} that throws nothing. */
    private static boolean exists(Path path) {
      try {
        return path.toFile().exists();
      } catch (UnsupportedOperationException e) {
        return true; // not the default file system: let the read decide
      }
    }

    /** A named file's syntax, from its extension. */
    private static FileSyntax detectSyntax(Path path) {
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

    private void extract(FileResult result, ConfigFormat format, Map<?, ?> top) {
      switch (format) {
        case KIROCREW -> gateway(result, top);
        case VSCODE -> servers(result, format, top, "", "servers");
        case VSCODE_SETTINGS -> {
          Object mcp = top.get("mcp");
          if (mcp instanceof Map<?, ?> section) {
            servers(result, format, section, "/mcp", "servers");
          } else if (mcp != null) {
            result.problems.add(EntryParser.expected("/mcp", "an object", mcp).getMessage());
          }
        }
        case CLAUDE_CODE_USER -> {
          servers(result, format, top, "", "mcpServers");
          project(result, top);
        }
        case CODEX -> servers(result, format, top, "", "mcp_servers");
        case ZED -> servers(result, format, top, "", "context_servers");
        case GOOSE -> servers(result, format, top, "", "extensions");
        case OPENCODE -> servers(result, format, top, "", "mcp");
        case CONTINUE, CONTINUE_BLOCK -> list(result, format, top, "mcpServers");
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

    /** Whether Codex's user file marks the working directory (or a parent) trusted. */
    private boolean codexTrusts() {
      if (codexUser == null || !(codexUser.get("projects") instanceof Map<?, ?> projects)) {
        return false;
      }
      for (Path p = cwd; p != null; p = p.getParent()) {
        if (projects.get(p.toString()) instanceof Map<?, ?> project
            && "trusted".equals(project.get("trust_level"))) {
          return true;
        }
      }
      return false;
    }

    private Substitution substitution(ConfigFormat format) {
      Map<String, String> secrets = Map.of();
      if (format.substitution() == Substitution.Style.CONTINUE
          || format.substitution() == Substitution.Style.CONTINUE_JSON) {
        secrets = continueSecrets();
      }
      return new Substitution(
          format.substitution(),
          new Substitution.Values(ctx.env(), cwd, home, platform.pathSeparator(), secrets));
    }

    /**
     * Continue's local secrets: {@code ~/.continue/.env}, then the workspace's {@code
     * .continue/.env}, then its {@code .env}; the first file that names a secret wins.
     */
    private Map<String, String> continueSecrets() {
      if (continueSecrets == null) {
        Map<String, String> out = new HashMap<>();
        for (Path p :
            List.of(
                continueHome().resolve(".env"),
                cwd.resolve(".continue/.env"),
                cwd.resolve(".env"))) {
          try {
            for (Map.Entry<String, String> e : EnvFiles.read(p).entrySet()) {
              out.putIfAbsent(e.getKey(), e.getValue());
            }
          } catch (IOException e) {
            // an absent or unreadable .env holds no secrets; the references stay unresolved
          }
        }
        continueSecrets = out;
      }
      return continueSecrets;
    }

    /** An object of named entries ({@code mcpServers}, {@code servers}, ...). */
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
      Substitution substitution = substitution(format);
      Set<String> geminiOff =
          format == ConfigFormat.GEMINI ? geminiDisabled(container, result) : Set.of();
      for (Map.Entry<?, ?> e : byServer.entrySet()) {
        String name = String.valueOf(e.getKey());
        String pointer = JsonInputException.child(sectionPointer, name);
        entry(result, format, name, pointer, e.getValue(), substitution, geminiOff);
      }
    }

    /** Continue's list of named entries. */
    private void list(FileResult result, ConfigFormat format, Map<?, ?> top, String member) {
      Object section = top.get(member);
      if (section == null) {
        return;
      }
      String sectionPointer = JsonInputException.child("", member);
      if (!(section instanceof List<?> items)) {
        result.problems.add(EntryParser.expected(sectionPointer, "an array", section).getMessage());
        return;
      }
      Substitution substitution = substitution(format);
      for (int i = 0; i < items.size(); i++) {
        entry(
            result,
            format,
            "",
            JsonInputException.child(sectionPointer, i),
            items.get(i),
            substitution,
            Set.of());
      }
    }

    private void entry(
        FileResult result,
        ConfigFormat format,
        String name,
        String pointer,
        @Nullable Object value,
        Substitution substitution,
        Set<String> disabledByList) {
      Shapes.Mapped mapped;
      EntryParser.Parsed parsed;
      try {
        mapped = Shapes.map(format, name, pointer, value, result.warnings);
        if (mapped == null) {
          return;
        }
        parsed =
            EntryParser.parse(mapped.entry(), substitution, format.envValues(), result.warnings);
      } catch (JsonInputException ex) {
        substitution.drain();
        result.problems.add(ex.getMessage());
        return;
      }
      String serverName = mapped.entry().name();
      List<UnresolvedVariable> unresolved = new ArrayList<>();
      for (Substitution.Found f : parsed.unresolved()) {
        unresolved.add(
            new UnresolvedVariable(
                serverName, result.display, f.pointer(), f.reference(), f.reason()));
      }
      ServerDefinition definition = parsed.definition();
      Map<String, String> fromFile =
          parsed.envFile() == null ? Map.of() : envFile(result, mapped.entry(), parsed.envFile());
      Map<String, String> env = new LinkedHashMap<>(fromFile);
      env.putAll(definition.env());
      env.keySet().removeAll(definition.unsetEnv());
      if (format.envValues() == ConfigFormat.EnvValues.VSCODE) {
        appendPath(mapped.entry(), definition.env(), fromFile, env, result.warnings);
      }
      if (format == ConfigFormat.AMAZONQ || format == ConfigFormat.AMAZONQ_AGENT) {
        hostEnvWins(mapped.entry(), env, result.warnings);
      }
      for (int i = 0; i < mapped.secretEnv().size(); i++) {
        unresolved.add(
            new UnresolvedVariable(
                serverName,
                result.display,
                JsonInputException.child(JsonInputException.child(pointer, "env_keys"), i),
                mapped.secretEnv().get(i),
                UnresolvedVariable.Reason.SECRET));
      }
      definition = definition.withEnv(env);
      if (disabledByList.contains(serverName) && !definition.disabled()) {
        definition = definition.withDisabled(true);
        result.warnings.add(
            pointer
                + ": disabled by Gemini CLI's mcp.excluded, mcp.allowed or its enablement file");
      }
      result.definitions.add(
          new ConfiguredDefinition(
              definition,
              result.display,
              result.path,
              pointer,
              format,
              definition.isStdio() ? identity(definition) : null,
              unresolved));
    }

    /**
     * VS Code's {@code envFile}: its variables, which go under the declared env (a declared name
     * wins). An unreadable file is a note: VS Code would refuse to start the server.
     */
    private Map<String, String> envFile(FileResult result, Entry entry, String file) {
      Path path;
      try {
        path = cwd.resolve(expandTilde(file)).normalize();
      } catch (InvalidPathException e) {
        result.warnings.add(entry.at("envFile") + ": not a valid path; its variables are not read");
        return Map.of();
      }
      try {
        return EnvFiles.read(path);
      } catch (IOException e) {
        result.warnings.add(
            entry.at("envFile")
                + ": cannot read "
                + user(path)
                + ": "
                + e.getMessage()
                + "; VS Code would not start this server, and kcshare reads it without those"
                + " variables");
        return Map.of();
      }
    }

    /**
     * VS Code appends a declared {@code PATH} to the one the server would inherit (the envFile's,
     * else kcshare's own) instead of replacing it.
     */
    private void appendPath(
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
        String base = fromFile.containsKey(key) ? fromFile.get(key) : ctx.env().get(key);
        if (base != null && !base.isEmpty()) {
          env.put(key, base + (platform == Platform.WINDOWS ? ";" : ":") + d.getValue());
        }
        warnings.add(
            JsonInputException.child(entry.at("env"), key)
                + ": appended to the inherited "
                + key
                + ", as VS Code does");
      }
    }

    /** Amazon Q sets its own environment over the declared env: a set variable wins. */
    private void hostEnvWins(Entry entry, Map<String, String> env, List<String> warnings) {
      for (Map.Entry<String, String> e : env.entrySet()) {
        String host = ctx.env().get(e.getKey());
        if (host != null && !host.equals(e.getValue())) {
          e.setValue(host);
          warnings.add(
              JsonInputException.child(entry.at("env"), e.getKey())
                  + ": Amazon Q gives the server its own value of this variable, which is set");
        }
      }
    }

    /**
     * Gemini CLI's names that are off: in {@code mcp.excluded}, missing from a present {@code
     * mcp.allowed}, or {@code enabled: false} in {@code ~/.gemini/mcp-server-enablement.json}.
     */
    private Set<String> geminiDisabled(Map<?, ?> settings, FileResult result) {
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
      Path enablement = geminiHome().resolve(".gemini/mcp-server-enablement.json");
      ConfigFiles.Read read = ConfigFiles.read(enablement);
      if (read.ok() && read.root() instanceof Map<?, ?> states) {
        for (Map.Entry<?, ?> e : states.entrySet()) {
          if (e.getValue() instanceof Map<?, ?> state
              && Boolean.FALSE.equals(state.get("enabled"))) {
            off.add(String.valueOf(e.getKey()));
          }
        }
      } else if (read.problem() != null) {
        result.warnings.add(
            "(root): "
                + user(enablement)
                + " cannot be used ("
                + read.problem()
                + "); servers turned off there are listed as enabled");
      }
      return off;
    }

    /** The verdict-cache identity (docs/design.md#cache-identity) of a stdio definition. */
    private String identity(ServerDefinition definition) {
      // The snapshot fingerprints answer a command or argument seen before in this load without
      // touching the file system again.
      String command = definition.command();
      return ServerIdentity.cacheIdentity(
          command == null ? "" : command, definition.args(), definition.env(), fingerprints);
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

    private static boolean detectsYaml(String fileName) {
      String lower = fileName.toLowerCase(Locale.ROOT);
      return lower.endsWith(".yaml") || lower.endsWith(".yml");
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
