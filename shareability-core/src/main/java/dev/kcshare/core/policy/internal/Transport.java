package dev.kcshare.core.policy.internal;

import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Which configured definitions are stdio servers: the one rule the config reader, the prober and
 * the embedding facade share. A definition is stdio when it names a {@code command} and its {@code
 * type} is absent or not one of {@link #NON_STDIO_TYPES}; an unknown type with a command still
 * reads as stdio (the config reader warns about it).
 *
 * <pre>{@code
 * Transport.isStdio("npx", null);      // true
 * Transport.isStdio("npx", "http");    // false: the type wins over the command
 * Transport.isStdio(null, "stdio");    // false: nothing to launch
 * }</pre>
 */
public final class Transport {
  /** Transport types that make a definition non-stdio even when it names a command. */
  public static final Set<String> NON_STDIO_TYPES =
      Set.of(
          "http",
          "sse",
          "streamable-http",
          "streamableHttp",
          "streamable_http",
          "remote",
          "tcp",
          "builtin",
          "platform",
          "frontend",
          "inline_python",
          "extension");

  private Transport() {}

  /**
   * Whether a definition with this {@code command} and {@code type} is launched over stdio.
   *
   * @param command the declared command, or null when none is declared
   * @param type the declared transport type, or null when none is declared
   * @return true when there is a command and the type does not name another transport
   */
  public static boolean isStdio(@Nullable String command, @Nullable String type) {
    return command != null && (type == null || !NON_STDIO_TYPES.contains(type));
  }
}
