package dev.kcshare.api;

import org.jspecify.annotations.Nullable;

/**
 * How the values' {@code toString} show an execution or launch identity: its NUL separators written
 * as {@code \0}, so a gateway that logs a value writes no NUL byte into its log.
 */
final class IdentityText {
  private IdentityText() {}

  static @Nullable String shown(@Nullable String identity) {
    return identity == null ? null : identity.replace("\0", "\\0");
  }
}
