package dev.kcshare.core.text;

import org.jspecify.annotations.Nullable;

/**
 * How kcshare's values' {@code toString} show an execution or launch identity: its NUL separators
 * written as {@code \0}, so a gateway that logs a value writes no NUL byte into its log.
 */
public final class IdentityText {
  private IdentityText() {}

  /**
   * The identity as a value's {@code toString} shows it.
   *
   * @param identity an execution or launch identity, or null
   * @return it with each NUL written as {@code \0}, or null
   */
  public static @Nullable String shown(@Nullable String identity) {
    return identity == null ? null : identity.replace("\0", "\\0");
  }
}
