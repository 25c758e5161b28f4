package dev.kcshare.cli;

import dev.kcshare.host.config.ConfigRequest;
import dev.kcshare.host.config.HostConfig;
import dev.kcshare.host.config.HostConfigLoader;
import java.util.ArrayList;
import java.util.List;
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
              + " (Kiro, Claude, Cursor), servers (VS Code), mcp_gateway (Kiro Crew); comments and"
              + " trailing commas are allowed. Only the named files are read unless --discover is"
              + " given.")
  private List<String> configFiles = new ArrayList<>();

  @Option(
      names = "--discover",
      description =
          "Read the usual Kiro Crew, Kiro, Claude Desktop, Claude Code, Cursor and VS Code files"
              + " as well as the --config files (discovery is the default without --config).")
  private boolean discover;

  @Option(
      names = "--profile",
      paramLabel = "P",
      description =
          "Host profile: default or kirocrew. Default: kirocrew when KIROCREW_HOME is set or"
              + " ~/.kiro/crew exists, else default.")
  private @Nullable String profile;

  /** For picocli and for commands that declare the mixin. */
  public ConfigOptions() {}

  /** What the options ask for. */
  public ConfigRequest request() {
    return new ConfigRequest(configFiles, discover, profile);
  }

  /**
   * Loads the configuration the options name. Bad files are reported in the result; call {@link
   * HostConfig#requireValid()} before building verdicts on it.
   *
   * @throws dev.kcshare.host.BadInputException for an unknown {@code --profile}
   */
  public HostConfig load(CliContext ctx) {
    return HostConfigLoader.load(ctx.host(), request());
  }
}
