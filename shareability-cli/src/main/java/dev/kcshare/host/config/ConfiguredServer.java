package dev.kcshare.host.config;

import dev.kcshare.core.policy.DefinitionFacts;
import dev.kcshare.core.policy.ServerFacts;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A configured server name with every definition of it, in config order.
 *
 * @param name the server name
 * @param definitions at least one
 */
public record ConfiguredServer(String name, List<ConfiguredDefinition> definitions) {
  /**
   * Copies the definitions.
   *
   * @throws IllegalArgumentException if there is no definition
   */
  public ConfiguredServer {
    Objects.requireNonNull(name, "name");
    definitions = List.copyOf(definitions);
    if (definitions.isEmpty()) {
      throw new IllegalArgumentException("a configured server has at least one definition");
    }
  }

  /**
   * Groups definitions by server name: one configured server per name, in order of first
   * appearance, each with its definitions in the given order.
   *
   * @param definitions every definition, in config order
   * @return the configured servers
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
    return out;
  }

  /** The first definition in config order (bulk-stub eligibility step 2 looks at it). */
  public ConfiguredDefinition first() {
    return definitions.get(0);
  }

  /** Whether the first definition is stdio (the evidence's {@code isStdio}). */
  public boolean stdio() {
    return first().stdio();
  }

  /**
   * The policy view of this server: per definition whether it is stdio and spawnable, its env
   * names, its execution identity and the env names it removes. The identity rules live there,
   * once.
   */
  public ServerFacts facts() {
    List<DefinitionFacts> defs = new ArrayList<>(definitions.size());
    for (ConfiguredDefinition cd : definitions) {
      ServerDefinition d = cd.definition();
      String command = d.command();
      defs.add(
          new DefinitionFacts(
              cd.stdio(),
              cd.stdio() && command != null && !command.isEmpty(),
              d.disabled(),
              new ArrayList<>(d.env().keySet()),
              cd.identity(),
              d.unsetEnv()));
    }
    return new ServerFacts(name, defs);
  }

  /**
   * The env names declared by any definition: the union, de-duplicated, sorted by code point
   * (docs/design.md#evidence-assembly {@code declaredEnvNames}; {@link
   * ServerFacts#declaredEnvNames}).
   */
  public List<String> declaredEnvNames() {
    return facts().declaredEnvNames();
  }

  /**
   * The execution identity every definition resolves to, or null when one is not stdio, two differ,
   * or they remove different env names ({@link ServerFacts#agreedIdentity}). Pre-flight evidence
   * counts only when this is non-null (docs/design.md#evidence-assembly).
   */
  public @Nullable String commonIdentity() {
    return facts().agreedIdentity();
  }

  /** The conflict among its definitions, or null when they all agree. */
  public @Nullable Conflict conflict() {
    Set<String> keys = new HashSet<>();
    int stdio = 0;
    for (ConfiguredDefinition d : definitions) {
      keys.add(d.comparisonKey());
      if (d.stdio()) {
        stdio++;
      }
    }
    if (keys.size() <= 1) {
      return null;
    }
    String reason;
    if (stdio == definitions.size()) {
      reason = "definitions resolve to different execution identities";
    } else if (stdio == 0) {
      reason = "non-stdio definitions differ in type or url";
    } else {
      reason = "some definitions are stdio and some are not";
    }
    return new Conflict(name, reason, definitions);
  }

  /**
   * True when every definition is part of its client ({@link ServerDefinition#partOfClient}): the
   * name is listed apart and left out of verdicts, passes and metrics.
   */
  public boolean partOfClient() {
    for (ConfiguredDefinition d : definitions) {
      if (!d.definition().partOfClient()) {
        return false;
      }
    }
    return true;
  }

  /** The clients whose files define it, in config order, each once ("Cursor", "VS Code"). */
  public List<String> clients() {
    Set<String> out = new java.util.LinkedHashSet<>();
    for (ConfiguredDefinition d : definitions) {
      out.add(d.format().client());
    }
    return List.copyOf(out);
  }

  /**
   * Which fields its definitions differ in, in a fixed order: {@code transport}, {@code command},
   * {@code args}, {@code env names}, {@code env values}, {@code removed env}, {@code cwd}, {@code
   * url}, {@code disabled}, {@code binary} (the same command line resolving to different files).
   * Names the fields only: never an env value. Empty when they all agree.
   */
  public List<String> differences() {
    return differences(definitions);
  }

  static List<String> differences(List<ConfiguredDefinition> definitions) {
    List<String> out = new ArrayList<>();
    if (definitions.size() < 2) {
      return List.of();
    }
    ConfiguredDefinition a = definitions.get(0);
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
    for (ConfiguredDefinition b : definitions.subList(1, definitions.size())) {
      var x = a.definition();
      var y = b.definition();
      transport |=
          a.stdio() != b.stdio() || (!a.stdio() && !java.util.Objects.equals(x.type(), y.type()));
      command |= !java.util.Objects.equals(x.command(), y.command());
      args |= !x.args().equals(y.args());
      boolean sameNames = x.env().keySet().equals(y.env().keySet());
      envNames |= !sameNames;
      envValues |= sameNames && !x.env().equals(y.env());
      unset |= !x.unsetEnv().equals(y.unsetEnv());
      cwd |= !java.util.Objects.equals(x.cwd(), y.cwd());
      url |= !java.util.Objects.equals(x.url(), y.url());
      disabled |= x.disabled() != y.disabled();
      binary |=
          a.stdio()
              && b.stdio()
              && java.util.Objects.equals(x.command(), y.command())
              && x.args().equals(y.args())
              && x.env().equals(y.env())
              && !java.util.Objects.equals(a.identity(), b.identity());
    }
    if (transport) {
      out.add("transport");
    }
    if (command) {
      out.add("command");
    }
    if (args) {
      out.add("args");
    }
    if (envNames) {
      out.add("env names");
    }
    if (envValues) {
      out.add("env values");
    }
    if (unset) {
      out.add("removed env");
    }
    if (cwd) {
      out.add("cwd");
    }
    if (url) {
      out.add("url");
    }
    if (disabled) {
      out.add("disabled");
    }
    if (binary) {
      out.add("binary");
    }
    return List.copyOf(out);
  }

  /** Every unresolved variable reference in its definitions. */
  public List<UnresolvedVariable> unresolved() {
    List<UnresolvedVariable> out = new ArrayList<>();
    for (ConfiguredDefinition d : definitions) {
      out.addAll(d.unresolved());
    }
    return List.copyOf(out);
  }
}
