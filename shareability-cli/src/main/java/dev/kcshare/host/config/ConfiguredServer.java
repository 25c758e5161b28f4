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
   * (engine §8 {@code declaredEnvNames}).
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
   * differ. Pre-flight evidence counts only when this is non-null (engine §8).
   */
  public @Nullable String commonIdentity() {
    String identity = null;
    for (ConfiguredDefinition d : definitions) {
      if (!d.stdio() || d.identity() == null) {
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

  /** Every unresolved variable reference in its definitions. */
  public List<UnresolvedVariable> unresolved() {
    List<UnresolvedVariable> out = new ArrayList<>();
    for (ConfiguredDefinition d : definitions) {
      out.addAll(d.unresolved());
    }
    return List.copyOf(out);
  }
}
