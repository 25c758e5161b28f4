package dev.kcshare.host.config;

import dev.kcshare.core.json.CodePoints;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
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

  /** The first definition in config order (bulk-stub eligibility step 2 looks at it). */
  public ConfiguredDefinition first() {
    return definitions.get(0);
  }

  /** Whether the first definition is stdio (the evidence's {@code isStdio}). */
  public boolean stdio() {
    return first().stdio();
  }

  /**
   * The env names declared by any definition: the union, de-duplicated, sorted by code point
   * (docs/design.md#evidence-assembly {@code declaredEnvNames}).
   */
  public List<String> declaredEnvNames() {
    Set<String> names = new TreeSet<>(CodePoints.ORDER);
    for (ConfiguredDefinition d : definitions) {
      names.addAll(d.definition().env().keySet());
    }
    return List.copyOf(names);
  }

  /**
   * The execution identity every definition resolves to, or null when one is not stdio or two
   * differ. Pre-flight evidence counts only when this is non-null
   * (docs/design.md#evidence-assembly).
   */
  public @Nullable String commonIdentity() {
    String identity = null;
    List<String> unset = first().definition().unsetEnv();
    for (ConfiguredDefinition d : definitions) {
      if (!d.stdio() || d.identity() == null || !d.definition().unsetEnv().equals(unset)) {
        return null;
      }
      if (identity == null) {
        identity = d.identity();
      } else if (!identity.equals(d.identity())) {
        return null;
      }
    }
    return identity;
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
