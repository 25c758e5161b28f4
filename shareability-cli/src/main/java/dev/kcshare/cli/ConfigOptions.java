package dev.kcshare.cli;

import dev.kcshare.api.ConfigFile;
import dev.kcshare.api.ConfigRequest;
import dev.kcshare.api.HostServers;
import dev.kcshare.api.UnusableEntry;
import dev.kcshare.core.policy.internal.SkippedFileWarnings;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.embed.Shareability;
import dev.kcshare.host.BadInputException;
import dev.kcshare.host.config.HostConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The {@code --config}, {@code --discover} and {@code --profile} options, as a picocli mixin for
 * every command that reads the host's MCP configuration ({@code @Mixin ConfigOptions config = new
 * ConfigOptions();}).
 */
public final class ConfigOptions {
  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "An MCP configuration file to read (repeatable). Its format is detected: mcpServers"
              + " (Kiro, Claude, Cursor and most others), servers (VS Code), mcp_servers (Codex,"
              + " .toml), context_servers (Zed), a list of mcpServers or extensions (Continue,"
              + " Goose, .yaml), mcp_gateway (Kiro Crew); JSON may have comments and trailing"
              + " commas. Only the named files are read unless --discover is given; a named file"
              + " that cannot be used is an error (exit 2).")
  private List<String> configFiles = new ArrayList<>();

  @Option(
      names = "--discover",
      description =
          "Read the usual files of every client kcshare knows (docs/config.md) as well as the"
              + " --config files (discovery is the default without --config). A discovered file"
              + " that cannot be used is skipped with a warning.")
  private boolean discover;

  @Option(
      names = "--profile",
      paramLabel = "P",
      description =
          "Host profile: default or kirocrew. Default: kirocrew when KIROCREW_HOME is set or"
              + " ~/.kiro/crew exists, else default.")
  private @Nullable String profile;

  /** The command this mixin belongs to (null when built outside picocli). */
  @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
  private CommandLine.Model.@Nullable CommandSpec mixee;

  /** Skipped files already warned about: a command that loads twice warns once. */
  private final Set<String> warned = new HashSet<>();

  /** For picocli and for commands that declare the mixin. */
  public ConfigOptions() {}

  /** The options as picocli sets them for {@code request}. */
  static ConfigOptions of(ConfigRequest request) {
    ConfigOptions o = new ConfigOptions();
    o.configFiles = new ArrayList<>(request.configFiles());
    o.discover = request.discover();
    o.profile = request.profile();
    return o;
  }

  /** What the options ask for. */
  public ConfigRequest request() {
    return ConfigRequest.files(configFiles).discover(discover).profile(profile);
  }

  /**
   * Loads the configuration the options name, and warns once on standard error about each
   * discovered file that is skipped. Bad named files are reported in the result; call {@link
   * HostConfig#requireValid()} before building verdicts on it.
   *
   * @throws dev.kcshare.host.BadInputException for an unknown {@code --profile}
   */
  public HostConfig load(CliContext ctx) {
    try (Shareability kc = CommandFacade.of(ctx)) {
      return load(ctx, kc);
    }
  }

  /**
   * {@link #load} through the embedding facade ({@link Shareability#hostServers}): the same files,
   * the same warnings, the same result.
   *
   * @throws BadInputException for an unknown {@code --profile}
   */
  public HostConfig load(CliContext ctx, Shareability kc) {
    HostServers loaded;
    try {
      loaded = kc.hostServers(request());
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage());
    }
    return warned(ctx, HostConfig.of(loaded));
  }

  /**
   * {@link #load} for a configuration already loaded for {@link #request()} (by a head start): the
   * same warnings, the same result.
   */
  HostConfig loaded(CliContext ctx, HostConfig host) {
    return warned(ctx, host);
  }

  /**
   * Warns about each skipped file and each unusable entry of a file that was read: on every run,
   * but on a quiet one ({@code -q}) once per state of the file, remembered in {@link
   * SkippedFilesMemory} ({@link SkippedFileWarnings}).
   */
  private HostConfig warned(CliContext ctx, HostConfig host) {
    List<SkippedFileWarnings.Skipped> skipped = new ArrayList<>();
    Set<String> entryLines = new HashSet<>();
    for (ConfigFile f : host.files()) {
      List<String> lines = new ArrayList<>();
      if (f.status() == ConfigFile.Status.SKIPPED) {
        for (String problem : f.problems()) {
          lines.add(f.describe(problem));
        }
      } else if (f.status() == ConfigFile.Status.READ) {
        for (UnusableEntry u : f.unusableEntries()) {
          lines.add(u.describe());
          entryLines.add(u.describe());
        }
      }
      if (!lines.isEmpty()) {
        skipped.add(
            new SkippedFileWarnings.Skipped(
                f.path().toString(),
                SkippedFilesMemory.stamp(
                    f.path(), f.status() == ConfigFile.Status.SKIPPED ? f.problems() : lines),
                lines));
      }
    }
    Path memory = SkippedFilesMemory.location(ctx.env());
    Map<String, String> previous = SkippedFilesMemory.read(memory);
    SkippedFileWarnings decided = SkippedFileWarnings.decide(previous, skipped, quiet());
    for (String line : decided.shown()) {
      if (warned.add(line)) {
        ctx.err()
            .println(
                "kcshare: warning: "
                    + Escaper.esc(line, Escaper.LONG_LIMIT)
                    + (entryLines.contains(line)
                        ? " (entry skipped; the file's other servers are read)"
                        : " (file skipped; its servers are left out)"));
      }
    }
    ctx.err().flush();
    if (decided.changes(previous)) {
      SkippedFilesMemory.write(memory, decided.remembered());
    }
    return host;
  }

  /** Whether the command line asked for quiet ({@code -q}); false outside picocli. */
  private boolean quiet() {
    if (mixee == null) {
      return false;
    }
    CommandLine.ParseResult parsed = mixee.root().commandLine().getParseResult();
    return parsed != null && KcshareCommand.verbosityOf(parsed) < 0;
  }
}
