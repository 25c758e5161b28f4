package dev.kcshare.cli;

import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.host.BadInputException;
import dev.kcshare.host.FileReads;
import dev.kcshare.host.config.ConfigEditor;
import dev.kcshare.host.config.GatewaySettings;
import dev.kcshare.host.config.HostConfig;
import dev.kcshare.host.config.ProfileSelection;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What {@code seed}, {@code stub} and {@code unstub} share in the command layer: checking the names
 * they were given and saying what a write did. The writes themselves are the library's ({@link
 * ConfigEditor}, {@code host.seeding}).
 */
final class GatewayWrites {
  private GatewayWrites() {}

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

  /**
   * What a write of {@code stub_overrides} did to the file, for people: which file it replaced and
   * where the previous version is, or that it created the file (and its directory) because there
   * was none. A {@code .bak} is named only when one was written.
   */
  static String wrote(Path file, ConfigEditor.Before before) {
    if (before.fileExisted()) {
      return "Wrote stub_overrides in "
          + path(file)
          + " (previous version in "
          + path(ConfigEditor.backupFile(file))
          + ").";
    }
    Path dir = file.toAbsolutePath().getParent();
    return "Created "
        + (before.directoryExisted() || dir == null
            ? path(file)
            : "the directory " + path(dir) + " and " + path(file) + " in it")
        + " with stub_overrides: there was no Kiro Crew configuration.";
  }

  /**
   * After kcshare created a configuration, the host profile it now selects and why: creating {@code
   * ~/.kiro/crew} does not make this a Kiro Crew host (see docs/config.md, Host profile).
   */
  static String profileAfterCreation(CliContext ctx) {
    // A new FileReads: the configuration was just written, and this reads it as it is now.
    ProfileSelection p = ProfileSelection.select(null, ctx.env(), new FileReads());
    return "Host profile: " + p.name() + " (" + p.reason() + ").";
  }

  /**
   * Checks that every requested name is defined by a loaded configuration or, when {@code section}
   * is given, named by the gateway section (its roster or an override: unstubbing a server that has
   * left the configuration is how its override is turned off).
   *
   * @throws BadInputException naming each other name, with the closest configured name (exit 2): a
   *     typo must not become an override nobody reads
   */
  static void requireKnown(
      HostConfig host, @Nullable GatewaySettings section, List<String> requested) {
    List<String> unknown = new ArrayList<>();
    for (String name : requested) {
      boolean inSection =
          section != null
              && (section.roster().contains(name) || section.stubOverrides().containsKey(name));
      if (host.serverNamed(name) == null && !inSection) {
        ConfiguredServer part = host.clientPartNamed(name);
        unknown.add(part != null ? HostConfig.clientPartText(part) : host.unknownServer(name));
      }
    }
    if (!unknown.isEmpty()) {
      host.requireValid(); // a file that could not be read may be where the name is defined
      throw new BadInputException(
          String.join(System.lineSeparator(), unknown)
              + System.lineSeparator()
              + "nothing written");
    }
  }
}
