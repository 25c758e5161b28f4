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
import java.util.LinkedHashMap;
import java.util.List;
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
  private static final class Run implements ClientFamily.Locations {
    private final HostContext ctx;
    private final Platform platform;
    private final Path home;
    private final Path cwd;
    private final Fingerprints fingerprints;
    private final Map<Path, String> seen = new HashMap<>();
    private final List<ConfigFile> files = new ArrayList<>();
    private final List<ConfiguredDefinition> definitions = new ArrayList<>();
    private final ClientHost host;
    private GatewaySettings gateway = GatewaySettings.absent();

    Run(HostContext ctx, Platform platform) {
      this.ctx = ctx;
      this.platform = platform;
      this.home = KiroCrewConfig.userHome(ctx.env()).toAbsolutePath().normalize();
      this.cwd = ctx.cwd().toAbsolutePath().normalize();
      this.fingerprints = Fingerprints.snapshot(ctx.env().get("PATH"), ctx.cwd());
      this.host = new ClientHost(ctx.env(), home, cwd, platform);
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
      for (ClientFamily client : ClientFamilies.DISCOVERY) {
        client.locate(host, this);
      }
    }

    @Override
    public void userFile(String origin, Path path, ConfigFormat format) {
      Path p = path.toAbsolutePath().normalize();
      read(user(p), p, origin, format);
    }

    @Override
    public void workspaceFile(String origin, String relative, ConfigFormat format) {
      read(relative, cwd.resolve(relative), origin, format);
    }

    // ---------------------------------------------------------------- locations

    @Override
    public void subdirectoryFiles(String origin, Path dir, String fileName, ConfigFormat format) {
      List<Path> found = new ArrayList<>();
      String display = user(dir.toAbsolutePath().normalize()) + "/*/" + fileName;
      if (!exists(dir)) {
        files.add(status(display, dir, origin, ConfigFile.Status.MISSING, List.of()));
        return;
      }
      try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
        for (Path p : stream) {
          if (Files.isRegularFile(p.resolve(fileName))) {
            found.add(p.resolve(fileName));
          }
        }
      } catch (NoSuchFileException | NotDirectoryException e) {
        files.add(status(display, dir, origin, ConfigFile.Status.MISSING, List.of()));
        return;
      } catch (IOException | SecurityException e) {
        files.add(
            status(
                display,
                dir,
                origin,
                ConfigFile.Status.SKIPPED,
                List.of("cannot list the directory: " + ConfigFiles.reason(e))));
        return;
      }
      if (found.isEmpty()) {
        files.add(status(display, dir, origin, ConfigFile.Status.MISSING, List.of()));
        return;
      }
      found.sort(
          (a, b) ->
              CodePoints.compare(
                  a.getParent().getFileName().toString(), b.getParent().getFileName().toString()));
      for (Path p : found) {
        userFile(origin, p, format);
      }
    }

    /** Every {@code *.ext} file of a user directory, by file name (code point order). */
    @Override
    public void directory(String origin, Path dir, List<String> extensions, ConfigFormat format) {
      Path abs = dir.toAbsolutePath().normalize();
      directory(origin, abs, user(abs), extensions, format);
    }

    /** Every {@code *.ext} file of a workspace directory, shown relative to the workspace. */
    @Override
    public void workspaceDirectory(
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
      FileSyntax syntax =
          format != null
              ? ClientFamilies.of(format).syntax(format)
              : NamedFileClient.syntaxOf(path);
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
      List<ConfigFormat> formats =
          format != null ? List.of(format) : NamedFileClient.formatsOf(path, top);
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
      if (format != null) {
        ClientFamilies.of(format)
            .afterRead(host, origin, top, result.definitions.size(), result.warnings);
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

    private void extract(FileResult result, ConfigFormat format, Map<?, ?> top) {
      ClientFamilies.of(format).extract(format, top, new FileSections(result));
    }

    /** What a client's extraction hands the sections of one file to. */
    private final class FileSections implements ClientFamily.Sections {
      private final FileResult result;

      FileSections(FileResult result) {
        this.result = result;
      }

      @Override
      public ClientHost host() {
        return host;
      }

      @Override
      public void servers(ConfigFormat format, Map<?, ?> container, String base, String member) {
        Run.this.servers(result, format, container, base, member);
      }

      @Override
      public void list(ConfigFormat format, Map<?, ?> top, String member) {
        Run.this.list(result, format, top, member);
      }

      @Override
      public void gateway(Map<?, ?> top) {
        Run.this.gateway(result, top);
      }

      @Override
      public void problem(String problem) {
        result.problems.add(problem);
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

    private Substitution substitution(ConfigFormat format) {
      ClientFamily client = ClientFamilies.of(format);
      return new Substitution(
          client.substitution(format),
          new Substitution.Values(
              ctx.env(), cwd, home, platform.pathSeparator(), client.secrets(host, format)));
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
      Set<String> off = ClientFamilies.of(format).disabledOutside(host, container, result.warnings);
      for (Map.Entry<?, ?> e : byServer.entrySet()) {
        String name = String.valueOf(e.getKey());
        String pointer = JsonInputException.child(sectionPointer, name);
        entry(result, format, name, pointer, e.getValue(), substitution, off);
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
      ClientFamily client = ClientFamilies.of(format);
      Shapes.Mapped mapped;
      EntryParser.Parsed parsed;
      try {
        mapped = Shapes.map(format, name, pointer, value, result.warnings);
        if (mapped == null) {
          return;
        }
        parsed =
            EntryParser.parse(
                mapped.entry(), substitution, client.envValues(format), result.warnings);
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
      client.adjustEnv(host, mapped.entry(), definition.env(), fromFile, env, result.warnings);
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
        result.warnings.add(pointer + ": " + client.disabledOutsideWhy());
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

    /** The verdict-cache identity (docs/design.md#cache-identity) of a stdio definition. */
    private String identity(ServerDefinition definition) {
      // The snapshot fingerprints answer a command or argument seen before in this load without
      // touching the file system again.
      String command = definition.command();
      return ServerIdentity.cacheIdentity(
          command == null ? "" : command, definition.args(), definition.env(), fingerprints);
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
      return host.expandTilde(name);
    }

    /** A user-level path as {@code ~/...} when it is under the home. */
    private String user(Path path) {
      return host.user(path);
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
