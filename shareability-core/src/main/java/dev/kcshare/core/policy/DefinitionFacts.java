package dev.kcshare.core.policy;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the policies need to know about one configured definition of a server name, computed by the
 * caller (some of it with I/O, such as the identity's file fingerprints).
 *
 * @param hasCommand the definition has a {@code command} member (a stdio server)
 * @param commandNonEmpty the command is present and not {@code ""} (a spawnable definition)
 * @param disabled the operator withheld consent; never spawned
 * @param envNames the declared env variable names (never values)
 * @param cacheIdentity the verdict-cache execution identity (records spec §7.4), or null when it
 *     cannot be computed (no command)
 * @param removedEnvNames names removed from the inherited environment before the declared env is
 *     laid over it (VS Code's {@code "NAME": null}), in declaration order; usually empty. The cache
 *     identity does not cover them, so definitions that remove different names do not agree.
 */
public record DefinitionFacts(
    boolean hasCommand,
    boolean commandNonEmpty,
    boolean disabled,
    List<String> envNames,
    @Nullable String cacheIdentity,
    List<String> removedEnvNames) {
  public DefinitionFacts {
    envNames = List.copyOf(envNames);
    removedEnvNames = List.copyOf(removedEnvNames);
    if (commandNonEmpty && !hasCommand) {
      throw new IllegalArgumentException("a non-empty command implies a command member");
    }
  }

  /** A definition that removes nothing from the inherited environment. */
  public DefinitionFacts(
      boolean hasCommand,
      boolean commandNonEmpty,
      boolean disabled,
      List<String> envNames,
      @Nullable String cacheIdentity) {
    this(hasCommand, commandNonEmpty, disabled, envNames, cacheIdentity, List.of());
  }

  /** A spawnable stdio definition with the given identity and env names. */
  public static DefinitionFacts stdio(String cacheIdentity, List<String> envNames) {
    return new DefinitionFacts(
        true, true, false, envNames, Objects.requireNonNull(cacheIdentity, "cacheIdentity"));
  }

  /** A definition without a command (for example an HTTP server). */
  public static DefinitionFacts remote(List<String> envNames) {
    return new DefinitionFacts(false, false, false, envNames, null);
  }

  /** May a pass spawn this definition? Disabled and command-less definitions never are. */
  public boolean spawnable() {
    return commandNonEmpty && !disabled;
  }
}
