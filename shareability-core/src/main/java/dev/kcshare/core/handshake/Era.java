package dev.kcshare.core.handshake;

import java.util.Locale;

/** How the pre-flight talked to a server. */
public enum Era {
  /** MCP up to 2025-11-25: {@code initialize}, then {@code tools/list}. */
  LEGACY,
  /** MCP 2026-07-28: no {@code initialize}; {@code server/discover}, then {@code tools/list}. */
  MODERN;

  private final String json = name().toLowerCase(Locale.ROOT);

  /** {@code "legacy"} or {@code "modern"}. */
  public String json() {
    return json;
  }

  /** Parses a stored era; absent or any unrecognised value reads as {@link #LEGACY}. */
  public static Era fromJsonLenient(Object value) {
    return "modern".equals(value) ? MODERN : LEGACY;
  }
}
