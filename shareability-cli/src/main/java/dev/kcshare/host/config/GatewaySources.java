package dev.kcshare.host.config;

import dev.kcshare.api.ConfiguredDefinition;
import dev.kcshare.api.ConfiguredServer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * Which configured servers the Kiro Crew gateway fronts, and so which names seeding and stubbing
 * may write into its {@code stub_overrides} (see {@code docs/seeding.md}).
 *
 * <p>The gateway puts a stub only in front of servers of the Kiro agent configuration it rewrites:
 * the Kiro agent files ({@code ~/.kiro/agents/*.json}, which include the agent file Kiro Crew
 * renders from its own {@code mcp.json}) and Kiro's user-level {@code ~/.kiro/settings/mcp.json},
 * whose servers it injects into every agent. Servers defined only in another client's files (Claude
 * Desktop, Claude Code, Cursor, VS Code) or in a workspace's {@code .kiro/settings/mcp.json} are
 * never started through the gateway, so an override for them would do nothing but mislead.
 *
 * <p>A definition counts by the file it comes from, whether that file was discovered or named with
 * {@code --config}; a symbolic link counts as the file it points to.
 */
public final class GatewaySources {
  private final Path settings;
  private final Path agents;

  private GatewaySources(Path home) {
    Path h = home.toAbsolutePath().normalize();
    this.settings = h.resolve(".kiro").resolve("settings").resolve("mcp.json");
    this.agents = h.resolve(".kiro").resolve("agents");
  }

  /** The gateway's sources under {@code home}. */
  public static GatewaySources under(Path home) {
    return new GatewaySources(Objects.requireNonNull(home, "home"));
  }

  /** The gateway's sources for the user whose environment this is ({@code $HOME}). */
  public static GatewaySources of(Map<String, String> env) {
    return under(KiroCrewConfig.userHome(env));
  }

  /** The sources in words: {@code ~/.kiro/settings/mcp.json and ~/.kiro/agents/*.json}. */
  public static String describe() {
    return "~/.kiro/settings/mcp.json and ~/.kiro/agents/*.json";
  }

  /** Whether the gateway fronts servers defined in this file. */
  public boolean isSource(Path file) {
    Path p = file.toAbsolutePath().normalize();
    if (matches(p)) {
      return true;
    }
    try {
      Path real = p.toRealPath();
      return matches(real, realOrSelf(settings), realOrSelf(agents));
    } catch (IOException | SecurityException e) {
      return false;
    }
  }

  /** Whether the gateway fronts this definition. */
  public boolean serves(ConfiguredDefinition definition) {
    return !definition.format().equals(ConfigFormat.EMBEDDED.id()) && isSource(definition.path());
  }

  /** Whether the gateway fronts the server: at least one of its definitions is in its sources. */
  public boolean serves(ConfiguredServer server) {
    for (ConfiguredDefinition d : server.configured()) {
      if (serves(d)) {
        return true;
      }
    }
    return false;
  }

  private boolean matches(Path p) {
    return matches(p, settings, agents);
  }

  private static boolean matches(Path p, Path settingsFile, Path agentsDir) {
    if (p.equals(settingsFile)) {
      return true;
    }
    Path name = p.getFileName();
    return agentsDir.equals(p.getParent()) && name != null && name.toString().endsWith(".json");
  }

  private static Path realOrSelf(Path p) {
    try {
      return p.toRealPath();
    } catch (IOException | SecurityException e) {
      return p;
    }
  }
}
