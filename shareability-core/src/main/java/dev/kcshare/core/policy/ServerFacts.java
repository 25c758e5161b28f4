package dev.kcshare.core.policy;

import dev.kcshare.core.json.internal.CodePoints;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * One configured server name with every definition of it, in config order. The first definition is
 * the one kcshare spawns and the one whose transport decides {@code isStdio}.
 *
 * @param name the configured server name
 * @param definitions at least one definition, in config order
 */
public record ServerFacts(String name, List<DefinitionFacts> definitions) {
  /**
   * Validates and copies the definitions.
   *
   * @param name the configured server name
   * @param definitions at least one definition, in config order
   * @throws NullPointerException if {@code name} is null
   * @throws IllegalArgumentException if {@code definitions} is empty
   */
  public ServerFacts {
    Objects.requireNonNull(name, "name");
    definitions = List.copyOf(definitions);
    if (definitions.isEmpty()) {
      throw new IllegalArgumentException("a server needs at least one definition: " + name);
    }
  }

  /**
   * The definition kcshare would spawn.
   *
   * @return the first definition
   */
  public DefinitionFacts first() {
    return definitions.get(0);
  }

  /**
   * The identity shared by every definition, or null when they disagree or any cannot be computed:
   * pre-flight evidence counts only when every definition resolves to the same identity
   * (docs/design.md#evidence-assembly) and removes the same names from the inherited environment.
   *
   * @return the agreed cache identity, or null
   */
  public @Nullable String agreedIdentity() {
    DefinitionFacts first = first();
    String identity = first.cacheIdentity();
    if (identity == null) {
      return null;
    }
    for (DefinitionFacts d : definitions) {
      if (!identity.equals(d.cacheIdentity())
          || !first.removedEnvNames().equals(d.removedEnvNames())) {
        return null;
      }
    }
    return identity;
  }

  /**
   * The union of declared env names over all definitions, de-duplicated, in code-point order.
   *
   * @return the names (never values)
   */
  public List<String> declaredEnvNames() {
    TreeSet<String> names = new TreeSet<>(CodePoints.ORDER);
    for (DefinitionFacts d : definitions) {
      names.addAll(d.envNames());
    }
    return List.copyOf(names);
  }
}
