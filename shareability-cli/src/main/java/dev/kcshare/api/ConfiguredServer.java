package dev.kcshare.api;

import dev.kcshare.core.policy.DefinitionFacts;
import dev.kcshare.core.policy.ServerFacts;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A server name with every definition given for it, in config order, and the execution identity
 * kcshare measures it under. Obtained from {@link dev.kcshare.embed.Shareability#servers};
 * immutable and cheap to keep.
 */
public final class ConfiguredServer {
  private final String name;
  private final List<ConfiguredDefinition> configured;

  private ConfiguredServer(String name, List<ConfiguredDefinition> configured) {
    this.name = Objects.requireNonNull(name, "name");
    this.configured = List.copyOf(configured);
    if (this.configured.isEmpty()) {
      throw new IllegalArgumentException("a configured server has at least one definition");
    }
    for (ConfiguredDefinition d : this.configured) {
      if (!d.name().equals(name)) {
        throw new IllegalArgumentException(
            "definition " + d.name() + " is not a definition of " + name);
      }
    }
  }

  /**
   * Groups definitions by server name: one configured server per name, in order of first
   * appearance, each with its definitions in the given order.
   *
   * @param definitions every definition, in config order
   * @return the configured servers (unmodifiable)
   * @throws NullPointerException if {@code definitions} or an element is null
   */
  public static List<ConfiguredServer> group(List<ConfiguredDefinition> definitions) {
    Map<String, List<ConfiguredDefinition>> byName = new LinkedHashMap<>();
    for (ConfiguredDefinition d : definitions) {
      byName.computeIfAbsent(d.name(), k -> new ArrayList<>()).add(d);
    }
    List<ConfiguredServer> out = new ArrayList<>(byName.size());
    for (Map.Entry<String, List<ConfiguredDefinition>> e : byName.entrySet()) {
      out.add(new ConfiguredServer(e.getKey(), e.getValue()));
    }
    return Collections.unmodifiableList(out);
  }

  /**
   * The server name.
   *
   * @return the name all its definitions share
   */
  public String name() {
    return name;
  }

  /**
   * Its definitions, in the order they were given (at least one).
   *
   * @return the definitions
   */
  public List<ServerDefinition> definitions() {
    List<ServerDefinition> out = new ArrayList<>(configured.size());
    for (ConfiguredDefinition d : configured) {
      out.add(d.definition());
    }
    return List.copyOf(out);
  }

  /**
   * Its definitions with where each came from and its execution identity, in the order given.
   *
   * @return at least one
   */
  public List<ConfiguredDefinition> configured() {
    return configured;
  }

  /**
   * The first definition in config order: the one kcshare would spawn.
   *
   * @return the first definition
   */
  public ConfiguredDefinition first() {
    return configured.get(0);
  }

  /**
   * Whether its first definition is a stdio server (the one kcshare would spawn).
   *
   * @return true for a stdio server
   */
  public boolean isStdio() {
    return first().isStdio();
  }

  /**
   * The policy view of this server: per definition whether it is stdio and spawnable, its env
   * names, its execution identity and the env names it removes.
   *
   * @return the facts the verdict is assessed from
   */
  public ServerFacts facts() {
    List<DefinitionFacts> defs = new ArrayList<>(configured.size());
    for (ConfiguredDefinition cd : configured) {
      ServerDefinition d = cd.definition();
      String command = d.command();
      defs.add(
          new DefinitionFacts(
              cd.isStdio(),
              cd.isStdio() && command != null && !command.isEmpty(),
              d.disabled(),
              new ArrayList<>(d.env().keySet()),
              cd.identity(),
              d.unsetEnv()));
    }
    return new ServerFacts(name, defs);
  }

  /**
   * The env names any definition declares: the union, sorted by code point. Never the values.
   *
   * @return the declared env names
   */
  public List<String> declaredEnvNames() {
    return facts().declaredEnvNames();
  }

  /**
   * The verdict-cache execution identity every definition resolves to, or null when one is not
   * stdio, two differ, or they remove different env names: pre-flight evidence counts only when
   * there is one.
   *
   * @return the agreed identity, or null
   */
  public @Nullable String commonIdentity() {
    return facts().agreedIdentity();
  }

  /** {@link #refusal()} of a server whose definitions conflict. */
  public static final String CONFLICT = "definitions conflict";

  /**
   * Why a pass never spawns this server (docs/design.md#pre-flight-ground-rules), or null when it
   * may: its first definition cannot be measured as written (a 1MCP template with variables), else
   * that definition's refusal ({@link ServerDefinition#refusal}: disabled, or nothing to spawn),
   * else {@link #CONFLICT} when its definitions have no common identity. The one rule passes and
   * {@code kcshare measure NAME} share.
   *
   * @return the refusal, or null
   */
  public @Nullable String refusal() {
    String unmeasurable = first().unmeasurable();
    if (unmeasurable != null) {
      return unmeasurable;
    }
    String refusal = first().definition().refusal();
    if (refusal != null) {
      return refusal;
    }
    return commonIdentity() == null ? CONFLICT : null;
  }

  /**
   * Whether its definitions disagree (different execution identities, transports or URLs). A
   * conflicting server is never measured: no measurement of one definition could count for the
   * name.
   *
   * @return true when the definitions conflict
   */
  public boolean isConflicting() {
    return conflictReason() != null;
  }

  /**
   * How its definitions conflict, or null when they agree: {@code definitions resolve to different
   * execution identities}, {@code non-stdio definitions differ in type or url}, or {@code some
   * definitions are stdio and some are not}.
   *
   * @return the reason, or null
   */
  public @Nullable String conflictReason() {
    Set<String> keys = new HashSet<>();
    int stdio = 0;
    for (ConfiguredDefinition d : configured) {
      keys.add(comparisonKey(d));
      if (d.isStdio()) {
        stdio++;
      }
    }
    if (keys.size() <= 1) {
      return null;
    }
    if (stdio == configured.size()) {
      return "definitions resolve to different execution identities";
    }
    if (stdio == 0) {
      return "non-stdio definitions differ in type or url";
    }
    return "some definitions are stdio and some are not";
  }

  /**
   * What two definitions must share to count as the same: the execution identity for stdio
   * definitions; the transport type and URL otherwise.
   */
  private static String comparisonKey(ConfiguredDefinition d) {
    ServerDefinition definition = d.definition();
    if (d.isStdio()) {
      List<String> inherited = definition.inheritedEnv();
      return "stdio\0"
          + d.identity()
          + "\0"
          + String.join("\0", definition.unsetEnv())
          + (inherited == null ? "" : "\0\0inherits\0" + String.join("\0", inherited));
    }
    return "remote\0" + definition.type() + "\0" + definition.url();
  }

  /**
   * True when every definition is part of its client ({@link ServerDefinition#isPartOfClient}):
   * there is no server process to measure, share or stub, and kcshare lists the name apart.
   *
   * @return true for a part of the client
   */
  public boolean isPartOfClient() {
    for (ConfiguredDefinition d : configured) {
      if (!d.definition().isPartOfClient()) {
        return false;
      }
    }
    return true;
  }

  /**
   * The clients whose files define it, in config order, each once ({@code Cursor}, {@code VS
   * Code}).
   *
   * @return the clients
   */
  public List<String> clients() {
    Set<String> out = new LinkedHashSet<>();
    for (ConfiguredDefinition d : configured) {
      out.add(d.client());
    }
    return List.copyOf(out);
  }

  /**
   * Which fields its definitions differ in, in a fixed order: {@code transport}, {@code command},
   * {@code args}, {@code env names}, {@code env values}, {@code removed env}, {@code cwd}, {@code
   * url}, {@code disabled}, {@code binary} (the same command line resolving to different files).
   * Names the fields only, never an env value; empty when they all agree.
   *
   * @return the differing fields
   */
  public List<String> differences() {
    if (configured.size() < 2) {
      return List.of();
    }
    ConfiguredDefinition a = configured.get(0);
    boolean transport = false;
    boolean command = false;
    boolean args = false;
    boolean envNames = false;
    boolean envValues = false;
    boolean unset = false;
    boolean cwd = false;
    boolean url = false;
    boolean disabled = false;
    boolean binary = false;
    ServerDefinition x = a.definition();
    for (ConfiguredDefinition b : configured.subList(1, configured.size())) {
      ServerDefinition y = b.definition();
      transport |=
          a.isStdio() != b.isStdio() || (!a.isStdio() && !Objects.equals(x.type(), y.type()));
      command |= !Objects.equals(x.command(), y.command());
      args |= !x.args().equals(y.args());
      boolean sameNames = x.env().keySet().equals(y.env().keySet());
      envNames |= !sameNames;
      envValues |= sameNames && !x.env().equals(y.env());
      unset |= !x.unsetEnv().equals(y.unsetEnv());
      cwd |= !Objects.equals(x.cwd(), y.cwd());
      url |= !Objects.equals(x.url(), y.url());
      disabled |= x.disabled() != y.disabled();
      binary |=
          a.isStdio()
              && b.isStdio()
              && Objects.equals(x.command(), y.command())
              && x.args().equals(y.args())
              && x.env().equals(y.env())
              && !Objects.equals(a.identity(), b.identity());
    }
    List<String> out = new ArrayList<>();
    add(out, transport, "transport");
    add(out, command, "command");
    add(out, args, "args");
    add(out, envNames, "env names");
    add(out, envValues, "env values");
    add(out, unset, "removed env");
    add(out, cwd, "cwd");
    add(out, url, "url");
    add(out, disabled, "disabled");
    add(out, binary, "binary");
    return List.copyOf(out);
  }

  private static void add(List<String> out, boolean differs, String field) {
    if (differs) {
      out.add(field);
    }
  }

  /**
   * Every variable reference left unresolved in its definitions, in config order.
   *
   * @return the references
   */
  public List<UnresolvedVariable> unresolved() {
    List<UnresolvedVariable> out = new ArrayList<>();
    for (ConfiguredDefinition d : configured) {
      out.addAll(d.unresolved());
    }
    return List.copyOf(out);
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof ConfiguredServer other
        && name.equals(other.name)
        && configured.equals(other.configured);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, configured);
  }

  @Override
  public String toString() {
    return "ConfiguredServer[" + name + ", " + configured.size() + " definition(s)]";
  }
}
