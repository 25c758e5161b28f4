package dev.kcshare.host.config;

import java.util.Locale;

/**
 * The operating system, which decides where per-user application configuration lives (Claude
 * Desktop's file). A parameter rather than a lookup so tests can exercise every layout.
 */
public enum Platform {
  LINUX,
  MACOS,
  WINDOWS;

  /** The platform kcshare runs on; anything not macOS or Windows is laid out like Linux. */
  public static Platform current() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    if (os.startsWith("mac") || os.startsWith("darwin")) {
      return MACOS;
    }
    if (os.startsWith("windows")) {
      return WINDOWS;
    }
    return LINUX;
  }

  /** The path separator the editors' {@code ${pathSeparator}} expands to. */
  String pathSeparator() {
    return this == WINDOWS ? "\\" : "/";
  }
}
