package dev.kcshare.cli;

import dev.kcshare.core.text.Escaper;
import dev.kcshare.host.config.ConfigRequest;
import dev.kcshare.host.config.HostConfig;
import dev.kcshare.host.config.HostConfigLoader;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
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
    return new ConfigRequest(configFiles, discover, profile);
  }

  /**
   * Loads the configuration the options name, and warns once on standard error about each
   * discovered file that is skipped. Bad named files are reported in the result; call {@link
   * HostConfig#requireValid()} before building verdicts on it.
   *
   * @throws dev.kcshare.host.BadInputException for an unknown {@code --profile}
   */
  public HostConfig load(CliContext ctx) {
    return warned(ctx, HostConfigLoader.load(ctx.host(), request()));
  }

  /**
   * {@link #load} for a configuration already loaded for {@link #request()} (by a head start): the
   * same warnings, the same result.
   */
  HostConfig loaded(CliContext ctx, HostConfig host) {
    return warned(ctx, host);
  }

  private HostConfig warned(CliContext ctx, HostConfig host) {
    for (String skipped : host.skipped()) {
      if (warned.add(skipped)) {
        ctx.err()
            .println(
                "kcshare: warning: "
                    + Escaper.esc(skipped, Escaper.LONG_LIMIT)
                    + " (file skipped; its servers are left out)");
      }
    }
    ctx.err().flush();
    return host;
  }
}
