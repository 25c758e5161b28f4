package dev.kcshare.core.handshake;

import java.util.Locale;

/** How the pre-flight talked to a server. */
public enum Era {
  /** MCP up to 2025-11-25: {@code initialize}, then {@code tools/list}. */
  LEGACY,
  /** MCP 2026-07-28: no {@code initialize}; {@code server/discover}, then {@code tools/list}. */
  MODERN;

  private final String json = name().toLowerCase(Locale.ROOT);

  /**
   * {@code "legacy"} or {@code "modern"}.
   *
   * @return the stored spelling
   */
  public String json() {
    return json;
  }

  /** The newest legacy protocol version; any dated version at or before it is legacy. */
  public static final String NEWEST_LEGACY_VERSION = "2025-11-25";

  /**
   * A {@code YYYY-MM-DD} string that sorts at or before {@value #NEWEST_LEGACY_VERSION}: a version
   * of the {@code initialize} era.
   *
   * @param version a protocol version string
   * @return true iff it is a legacy-era version
   */
  public static boolean isLegacyVersion(String version) {
    return version.length() == 10
        && version.matches("[0-9]{4}-[0-9]{2}-[0-9]{2}")
        && version.compareTo(NEWEST_LEGACY_VERSION) <= 0;
  }

  /**
   * Parses a stored era; absent or any unrecognised value reads as {@link #LEGACY}.
   *
   * @param value the stored {@code era} member
   * @return the era; never null
   */
  public static Era fromJsonLenient(Object value) {
    return "modern".equals(value) ? MODERN : LEGACY;
  }
}
