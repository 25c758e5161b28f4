package dev.kcshare.embed;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A server name with every definition the gateway gave for it, and the execution identity kcshare
 * measures it under. Obtained from {@link Shareability#servers}; immutable and cheap to keep.
 */
public final class ConfiguredServer {
  private final dev.kcshare.host.config.ConfiguredServer host;
  private final List<ServerDefinition> definitions;

  private ConfiguredServer(
      dev.kcshare.host.config.ConfiguredServer host, List<ServerDefinition> definitions) {
    this.host = host;
    this.definitions = List.copyOf(definitions);
  }

  static ConfiguredServer of(
      dev.kcshare.host.config.ConfiguredServer host, List<ServerDefinition> definitions) {
    return new ConfiguredServer(Objects.requireNonNull(host, "host"), definitions);
  }

  /**
   * The server name.
   *
   * @return the name all its definitions share
   */
  public String name() {
    return host.name();
  }

  /**
   * Its definitions, in the order they were given (at least one).
   *
   * @return the definitions
   */
  public List<ServerDefinition> definitions() {
    return definitions;
  }

  /**
   * Whether its first definition is a stdio server (the one kcshare would spawn).
   *
   * @return true for a stdio server
   */
  public boolean isStdio() {
    return host.stdio();
  }

  /**
   * The verdict-cache execution identity every definition resolves to, or null when one is not
   * stdio or two differ: pre-flight evidence counts only when there is one.
   *
   * @return the agreed identity, or null
   */
  public @Nullable String commonIdentity() {
    return host.commonIdentity();
  }

  /**
   * Whether its definitions disagree (different execution identities, transports or URLs). A
   * conflicting server is never measured: no measurement of one definition could count for the
   * name.
   *
   * @return true when the definitions conflict
   */
  public boolean isConflicting() {
    return host.conflict() != null;
  }

  /**
   * The env names any definition declares: the union, sorted by code point. Never the values.
   *
   * @return the declared env names
   */
  public List<String> declaredEnvNames() {
    return host.declaredEnvNames();
  }

  dev.kcshare.host.config.ConfiguredServer host() {
    return host;
  }

  static List<dev.kcshare.host.config.ConfiguredServer> hosts(List<ConfiguredServer> servers) {
    List<dev.kcshare.host.config.ConfiguredServer> out = new ArrayList<>(servers.size());
    for (ConfiguredServer s : servers) {
      out.add(s.host);
    }
    return out;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof ConfiguredServer other
        && host.equals(other.host)
        && definitions.equals(other.definitions);
  }

  @Override
  public int hashCode() {
    return host.hashCode();
  }

  @Override
  public String toString() {
    return "ConfiguredServer[" + name() + ", " + definitions.size() + " definition(s)]";
  }
}
