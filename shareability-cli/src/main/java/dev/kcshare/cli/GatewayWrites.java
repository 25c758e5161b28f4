package dev.kcshare.cli;

import dev.kcshare.core.text.Escaper;
import dev.kcshare.host.BadInputException;
import dev.kcshare.host.config.ConfigFile;
import dev.kcshare.host.config.ConfigFormat;
import dev.kcshare.host.config.GatewaySettings;
import dev.kcshare.host.config.HostConfig;
import dev.kcshare.host.config.KiroCrewConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;

/** What {@code seed}, {@code stub} and {@code unstub} share: which file they write, and how. */
final class GatewayWrites {
  private GatewayWrites() {}

  /**
   * The configuration file that holds {@code mcp_gateway}: the file the gateway settings were read
   * from, else the Kiro Crew configuration ({@code $KIROCREW_HOME/config.json}, default {@code
   * ~/.kiro/crew/config.json}), which is where the gateway reads them.
   */
  static Path configFile(CliContext ctx, HostConfig host) {
    String source = host.gateway().source();
    if (source != null) {
      for (ConfigFile f : host.files()) {
        if (f.display().equals(source) && f.formats().contains(ConfigFormat.KIROCREW)) {
          return f.path();
        }
      }
    }
    return ctx.cwd().resolve(KiroCrewConfig.configFile(ctx.env())).toAbsolutePath().normalize();
  }

  /**
   * The effective {@code forward_declared_env}. When it is not set (or not a boolean) kcshare takes
   * it as OFF: with forwarding off every declared env key is withheld from a shared backend, which
   * is the reading that can never call a server shareable that the gateway would starve of its env.
   */
  static boolean forwardDeclaredEnv(GatewaySettings settings) {
    return Boolean.TRUE.equals(settings.forwardDeclaredEnv());
  }

  /**
   * The requested names, de-duplicated at first occurrence.
   *
   * @throws BadInputException for an empty name (an override with an empty name is never read)
   */
  static List<String> names(Collection<String> requested) {
    LinkedHashSet<String> out = new LinkedHashSet<>();
    for (String name : requested) {
      if (name.isEmpty()) {
        throw new BadInputException("NAME must not be empty");
      }
      out.add(name);
    }
    return new ArrayList<>(out);
  }

  /** Escaped, comma-separated names, or {@code (none)}. */
  static String list(Collection<String> names) {
    if (names.isEmpty()) {
      return "(none)";
    }
    List<String> out = new ArrayList<>(names.size());
    for (String n : names) {
      out.add(Escaper.esc(n, Escaper.SHORT_LIMIT));
    }
    return String.join(", ", out);
  }

  static String path(Path p) {
    return Escaper.esc(p.toString(), Escaper.LONG_LIMIT);
  }
}
