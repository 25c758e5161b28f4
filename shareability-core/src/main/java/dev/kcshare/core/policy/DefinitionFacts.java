package dev.kcshare.core.policy;

import dev.kcshare.core.policy.internal.Transport;
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
 * @param cacheIdentity the verdict-cache execution identity (docs/design.md#cache-identity), or
 *     null when it cannot be computed (no command)
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
  /**
   * Copies the env name lists.
   *
   * @param hasCommand the definition has a {@code command} member (a stdio server)
   * @param commandNonEmpty the command is present and not {@code ""} (a spawnable definition)
   * @param disabled the operator withheld consent; never spawned
   * @param envNames the declared env variable names (never values)
   * @param cacheIdentity the verdict-cache execution identity (docs/design.md#cache-identity), or
   *     null when it cannot be computed (no command)
   * @param removedEnvNames names removed from the inherited environment before the declared env is
   *     laid over it (VS Code's {@code "NAME": null}), in declaration order; usually empty. The
   *     cache identity does not cover them, so definitions that remove different names do not
   *     agree.
   * @throws IllegalArgumentException if {@code commandNonEmpty} is set without {@code hasCommand}
   */
  public DefinitionFacts {
    envNames = List.copyOf(envNames);
    removedEnvNames = List.copyOf(removedEnvNames);
    if (commandNonEmpty && !hasCommand) {
      throw new IllegalArgumentException("a non-empty command implies a command member");
    }
  }

  /**
   * A definition that removes nothing from the inherited environment.
   *
   * @param hasCommand the definition has a {@code command} member (a stdio server)
   * @param commandNonEmpty the command is present and not {@code ""} (a spawnable definition)
   * @param disabled the operator withheld consent; never spawned
   * @param envNames the declared env variable names (never values)
   * @param cacheIdentity the verdict-cache execution identity (docs/design.md#cache-identity), or
   *     null when it cannot be computed (no command)
   */
  public DefinitionFacts(
      boolean hasCommand,
      boolean commandNonEmpty,
      boolean disabled,
      List<String> envNames,
      @Nullable String cacheIdentity) {
    this(hasCommand, commandNonEmpty, disabled, envNames, cacheIdentity, List.of());
  }

  /**
   * A spawnable stdio definition with the given identity and env names.
   *
   * @param cacheIdentity the verdict-cache execution identity (docs/design.md#cache-identity), or
   *     null when it cannot be computed (no command)
   * @param envNames the declared env variable names (never values)
   * @return the facts of an enabled definition with a non-empty command
   */
  public static DefinitionFacts stdio(String cacheIdentity, List<String> envNames) {
    return new DefinitionFacts(
        true, true, false, envNames, Objects.requireNonNull(cacheIdentity, "cacheIdentity"));
  }

  /**
   * A definition without a command (for example an HTTP server).
   *
   * @param envNames the declared env variable names (never values)
   * @return the facts of an enabled definition with no command and no cache identity
   */
  public static DefinitionFacts remote(List<String> envNames) {
    return new DefinitionFacts(false, false, false, envNames, null);
  }

  /** The refusal of a definition the operator disabled: consent withheld. */
  public static final String DISABLED = "disabled";

  /** The refusal of a definition with nothing to spawn: not stdio, or an empty command. */
  public static final String NO_COMMAND = "no command";

  /**
   * Why this definition is never spawned, or null when it may be: {@link #DISABLED} (the operator
   * withheld consent, whatever else it declares), else {@link #NO_COMMAND} (not a stdio server, or
   * an empty command). The one rule the prober, passes and eligibility share.
   *
   * @return the refusal, or null
   */
  public @Nullable String refusal() {
    if (disabled) {
      return DISABLED;
    }
    return commandNonEmpty ? null : NO_COMMAND;
  }

  /**
   * {@link #refusal()} of a definition known only by these three facts.
   *
   * @param disabled the operator disabled it
   * @param stdio it is a stdio server ({@link Transport#isStdio})
   * @param command its command, or null
   * @return the refusal, or null when it may be spawned
   */
  public static @Nullable String refusal(
      boolean disabled, boolean stdio, @Nullable String command) {
    boolean nonEmpty = stdio && command != null && !command.isEmpty();
    return new DefinitionFacts(stdio, nonEmpty, disabled, List.of(), null).refusal();
  }

  /**
   * May a pass spawn this definition? Disabled and command-less definitions never are.
   *
   * @return true iff {@link #refusal()} is null: enabled, with a non-empty command
   */
  public boolean spawnable() {
    return refusal() == null;
  }
}
