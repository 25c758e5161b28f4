package dev.kcshare.host.config;

import dev.kcshare.api.ConfigFile;
import dev.kcshare.api.ConfigRequest;
import dev.kcshare.api.ConfiguredDefinition;
import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.internal.Results;
import dev.kcshare.core.json.internal.JsonInputException;
import dev.kcshare.host.HostContext;
import dev.kcshare.host.records.Fingerprints;
import java.io.IOException;
import java.nio.file.InvalidPathException;
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
 * $KIROCREW_HOME/config.json}, gateway settings only), Kiro, Claude Desktop, Claude Code, Cursor
 * and VS Code's workspace file, then VS Code's user files, Windsurf, Cline, Roo Code, Gemini CLI,
 * Codex CLI, Zed, Continue, Goose, LM Studio, Amazon Q Developer CLI and opencode (the table in
 * {@code docs/config.md}). Workspace paths are relative to the working directory. The order is a
 * listing order, not a precedence: every definition of a name is kept.
 *
 * <p>Loading never throws for a bad file. A server entry that cannot be used is left out on its own
 * ({@link ConfigFile#unusableEntries()}) and the other entries of its file are read. A named file
 * that cannot be used, or holds such an entry, is reported with status {@code error} and {@link
 * HostConfig#requireValid()} refuses to go on; a discovered file that cannot be used at all (not
 * valid JSON(C), TOML or YAML, a top level or server section of the wrong shape, bad gateway
 * settings) is {@code skipped}: its servers are left out and every other file still counts.
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
    ProfileSelection profile = ProfileSelection.select(request.profile(), ctx.env(), ctx.reads());
    Run run = new Run(ctx, platform);
    for (String name : request.configFiles()) {
      run.explicit(name);
    }
    if (request.discovers()) {
      run.discover();
    }
    List<ConfiguredServer> servers = new ArrayList<>();
    List<ConfiguredServer> clientParts = new ArrayList<>();
    for (ConfiguredServer s : run.servers()) {
      (s.isPartOfClient() ? clientParts : servers).add(s);
    }
    return new HostConfig(run.files, servers, clientParts, run.gateway, profile);
  }

  /**
   * The definitions of one gateway file's entries as discovery reads them in {@code format}, by the
   * pointer of each entry: what seeding compares verdicts with, so seeding and discovery never
   * disagree on what the file holds. An entry discovery cannot use has no definition.
   *
   * @param top the file's parsed top-level object
   */
  public static Map<String, ConfiguredDefinition> gatewayEntries(
      HostContext ctx, Path path, Map<?, ?> top, ConfigFormat format) {
    Run run = new Run(ctx, Platform.current());
    FileResult result = new FileResult(path.toString(), path);
    run.extract(result, ClientFamilies.of(format), format, top);
    Map<String, ConfiguredDefinition> out = new LinkedHashMap<>();
    for (ConfiguredDefinition d : result.definitions) {
      out.put(d.pointer(), d);
    }
    return out;
  }

  private static List<String> ids(List<ConfigFormat> formats) {
    List<String> out = new ArrayList<>(formats.size());
    for (ConfigFormat f : formats) {
      out.add(f.id());
    }
    return out;
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
    private final ClientHost host;
    private final ServerSections sections;
    private GatewaySettings gateway = GatewaySettings.absent();

    Run(HostContext ctx, Platform platform) {
      this.ctx = ctx;
      this.platform = platform;
      this.home = KiroCrewConfig.userHome(ctx.env()).toAbsolutePath().normalize();
      this.cwd = ctx.cwd().toAbsolutePath().normalize();
      this.fingerprints = Fingerprints.snapshot(ctx.env().get("PATH"), ctx.cwd());
      this.host = new ClientHost(ctx.env(), home, cwd, platform);
      this.sections = new ServerSections(host, fingerprints);
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
            new Results.ConfigFile(
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
      read(name, path, "config", null, null);
    }

    void discover() {
      for (ClientFamily client : ClientFamilies.DISCOVERY) {
        client.locate(host, new DiscoverySlots(host, files, client, this::read));
      }
    }

    // ---------------------------------------------------------------- reading

    /**
     * Reads one file.
     *
     * @param client the client of a discovered file; null for a named file
     * @param format the format of a discovered file; null to detect it (a named file)
     */
    private void read(
        String display,
        Path path,
        String origin,
        @Nullable ClientFamily client,
        @Nullable ConfigFormat format) {
      if (!DiscoverySlots.exists(path)) {
        // Most discovered locations do not exist on a given host: answer those with one stat,
        // without the exceptions that opening a missing file would throw.
        files.add(
            format == null
                ? DiscoverySlots.status(
                    display, path, origin, ConfigFile.Status.ERROR, List.of("no such file"))
                : DiscoverySlots.status(
                    display, path, origin, ConfigFile.Status.MISSING, List.of()));
        return;
      }
      Path key = identityOf(path);
      String earlier = seen.get(key);
      if (earlier != null) {
        files.add(
            new Results.ConfigFile(
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
          client != null && format != null
              ? client.syntax(format)
              : ClientFamilies.syntaxOfNamed(path);
      ConfigFiles.Read read = ConfigFiles.read(ctx.reads(), path, syntax);
      if (read.missing()) {
        if (format == null) {
          files.add(
              DiscoverySlots.status(
                  display, path, origin, ConfigFile.Status.ERROR, List.of("no such file")));
        } else {
          files.add(
              DiscoverySlots.status(display, path, origin, ConfigFile.Status.MISSING, List.of()));
        }
        return;
      }
      seen.put(key, display);
      if (read.problem() != null) {
        files.add(DiscoverySlots.status(display, path, origin, bad, List.of(read.problem())));
        return;
      }
      Object root = read.root();
      if (!(root instanceof Map<?, ?> top)) {
        String problem = EntryParser.expected("", "an object", root).getMessage();
        files.add(DiscoverySlots.status(display, path, origin, bad, List.of(problem)));
        return;
      }
      List<ConfigFormat> formats =
          format != null ? List.of(format) : ClientFamilies.formatsOfNamed(path, top);
      if (formats.isEmpty()) {
        files.add(
            DiscoverySlots.status(
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
        // A named file's client is the one whose format its members were detected as.
        extract(result, client != null ? client : ClientFamilies.of(f), f, top);
      }
      if (result.fileProblems() && bad == ConfigFile.Status.SKIPPED) {
        // A file that is not the right shape is not read: none of its servers or settings count.
        gateway = before;
        files.add(
            new Results.ConfigFile(
                display, path, origin, ids(formats), bad, result.problems, result.warnings, 0));
        return;
      }
      // An entry that cannot be used is left out on its own: the file's other entries count. A
      // named file with one is still an error, so no verdict is built on it.
      definitions.addAll(result.definitions);
      if (client != null) {
        client.afterRead(host, origin, top, result.definitions.size(), result.warnings);
      }
      boolean error = bad == ConfigFile.Status.ERROR && !result.problems.isEmpty();
      files.add(
          new Results.ConfigFile(
              display,
              path,
              origin,
              ids(formats),
              error ? ConfigFile.Status.ERROR : ConfigFile.Status.READ,
              error ? result.problems : List.of(),
              result.warnings,
              result.definitions.size(),
              result.unusable));
    }

    private void extract(
        FileResult result, ClientFamily client, ConfigFormat format, Map<?, ?> top) {
      client.extract(format, top, new FileSections(result, client));
    }

    /** What a client's extraction hands the sections of one file to. */
    private final class FileSections implements ClientFamily.Sections {
      private final FileResult result;
      private final ClientFamily client;

      FileSections(FileResult result, ClientFamily client) {
        this.result = result;
        this.client = client;
      }

      @Override
      public ClientHost host() {
        return host;
      }

      @Override
      public void servers(ConfigFormat format, Map<?, ?> container, String base, String member) {
        sections.servers(result, client, format, container, base, member);
      }

      @Override
      public void list(ConfigFormat format, Map<?, ?> top, String member) {
        sections.list(result, client, format, top, member);
      }

      @Override
      public void gateway(Map<?, ?> top) {
        Run.this.gateway(result, top);
      }

      @Override
      public void problem(String problem) {
        result.problems.add(problem);
      }

      @Override
      public void warning(String warning) {
        result.warnings.add(warning);
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
  }
}
