package dev.kcshare.api;

import dev.kcshare.core.verdict.HostProfile;
import dev.kcshare.core.verdict.IdentityKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The servers the host's own MCP client configs declare, as the {@code kcshare} command reads them
 * (docs/config.md): every file looked at, the configured servers, the entries that are part of a
 * client, the host profile in force and the Kiro Crew gateway settings. Obtained from {@link
 * dev.kcshare.embed.Shareability#hostServers}; immutable.
 *
 * <p>Reading never fails for a bad file: a discovered file that cannot be used is {@link
 * ConfigFile.Status#SKIPPED} (its servers are left out, {@link #skipped()} says why), a server
 * entry that cannot be used is left out on its own ({@link #unusableEntries()}; the other entries
 * of its file count) and a file named in the request that cannot be used, or holds an unusable
 * entry, is {@link ConfigFile.Status#ERROR} ({@link #errors()}): do not build verdicts on a
 * configuration with errors, since a file read in part could hide a conflicting definition.
 *
 * <p>kcshare implements this interface (two are equal when their components are); later versions
 * may add accessors.
 */
public interface HostServers {
  /**
   * Every file looked at, in the documented order, with what came of it.
   *
   * @return the files
   */
  List<ConfigFile> files();

  /**
   * The configured servers, in config order (client parts left out).
   *
   * @return the servers
   */
  List<ConfiguredServer> servers();

  /**
   * The names every definition of which is part of its client ({@link
   * ConfiguredServer#isPartOfClient()}): nothing to measure, share or stub.
   *
   * @return the client parts
   */
  List<ConfiguredServer> clientParts();

  /**
   * The name of the host profile in force.
   *
   * @return {@code default} or {@code kirocrew}
   */
  String profileName();

  /**
   * The host profile in force.
   *
   * @return that profile
   */
  HostProfile hostProfile();

  /**
   * Why the profile was chosen, in words ({@code KIROCREW_HOME is set}, ...).
   *
   * @return the reason
   */
  String profileReason();

  /**
   * The Kiro Crew configuration file as displayed.
   *
   * @return the file, or null when none was read
   */
  @Nullable String gatewaySource();

  /**
   * Its {@code mcp_gateway} section as read (an unmodifiable JSON tree: maps, lists, strings,
   * numbers, booleans and nulls).
   *
   * @return the section; empty when there is none
   */
  Optional<Map<String, @Nullable Object>> gatewaySection();

  /**
   * The configured server of that name.
   *
   * @param name the server name
   * @return the server, or empty when no file defines it (or only as a client part)
   */
  default Optional<ConfiguredServer> server(String name) {
    return find(servers(), name);
  }

  /**
   * The client part of that name ({@link #clientParts}).
   *
   * @param name the name
   * @return the part, or empty when there is none
   */
  default Optional<ConfiguredServer> clientPart(String name) {
    return find(clientParts(), name);
  }

  private static Optional<ConfiguredServer> find(List<ConfiguredServer> in, String name) {
    for (ConfiguredServer s : in) {
      if (s.name().equals(name)) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }

  /**
   * The servers whose definitions disagree ({@link ConfiguredServer#isConflicting()}), in config
   * order: they get no pre-flight evidence and are never measured.
   *
   * @return the conflicting servers
   */
  default List<ConfiguredServer> conflicts() {
    List<ConfiguredServer> out = new ArrayList<>();
    for (ConfiguredServer s : servers()) {
      if (s.isConflicting()) {
        out.add(s);
      }
    }
    return List.copyOf(out);
  }

  /**
   * Every variable reference left unresolved in the servers' definitions, in config order.
   *
   * @return the references
   */
  default List<UnresolvedVariable> unresolved() {
    List<UnresolvedVariable> out = new ArrayList<>();
    for (ConfiguredServer s : servers()) {
      out.addAll(s.unresolved());
    }
    return List.copyOf(out);
  }

  /**
   * The env names the Kiro Crew gateway keys its pools on ({@code pool_identity_env}, trimmed,
   * blanks and credential-scrub names dropped): verdicts of these servers use them.
   *
   * @return the identity keys; empty without gateway settings
   */
  default Set<String> identityKeys() {
    return IdentityKeys.resolve(gatewaySection().map(s -> s.get("pool_identity_env")).orElse(null));
  }

  /**
   * One line per problem of a file named in the request, {@code file: /pointer: problem} (or {@code
   * file:line:column: problem}); config text unescaped, never an env value.
   *
   * @return the lines; empty when every named file could be used
   */
  default List<String> errors() {
    return lines(ConfigFile.Status.ERROR);
  }

  /**
   * One line per problem of a discovered file that was skipped, in the form of {@link #errors()},
   * then one per unusable entry of a discovered file that was read ({@link
   * ConfigFile#unusableEntries()}: that entry is left out, the file's others count), {@code file:
   * /pointer: problem}.
   *
   * @return the lines; empty when no discovered file or entry was skipped
   */
  default List<String> skipped() {
    List<String> out = new ArrayList<>(lines(ConfigFile.Status.SKIPPED));
    for (ConfigFile f : files()) {
      if (f.status() == ConfigFile.Status.READ) {
        for (UnusableEntry u : f.unusableEntries()) {
          out.add(u.describe());
        }
      }
    }
    return List.copyOf(out);
  }

  /**
   * Every server entry kcshare could not use, of every file that was read (discovered or named), in
   * config order.
   *
   * @return the entries
   */
  default List<UnusableEntry> unusableEntries() {
    List<UnusableEntry> out = new ArrayList<>();
    for (ConfigFile f : files()) {
      out.addAll(f.unusableEntries());
    }
    return List.copyOf(out);
  }

  private List<String> lines(ConfigFile.Status status) {
    List<String> out = new ArrayList<>();
    for (ConfigFile f : files()) {
      if (f.status() == status) {
        for (String problem : f.problems()) {
          out.add(f.describe(problem));
        }
      }
    }
    return List.copyOf(out);
  }
}
