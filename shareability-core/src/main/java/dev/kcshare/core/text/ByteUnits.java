package dev.kcshare.core.text;

import java.util.Locale;

/** Byte counts for people, in binary units (KiB = 1024 bytes, MiB, GiB, ...). */
public final class ByteUnits {
  private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

  private ByteUnits() {}

  /**
   * {@code 512 B}, {@code 8.4 MiB}, {@code 84 MiB}, {@code 1.5 GiB}: below 10 in its unit one
   * decimal, else whole units (rounded half up); the unit is the largest that keeps the number
   * below 1024.
   *
   * @throws IllegalArgumentException if {@code bytes} is negative
   */
  public static String binary(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes must not be negative: " + bytes);
    }
    if (bytes < 1024) {
      return bytes + " B";
    }
    int unit = 0;
    double value = bytes;
    while (value >= 1024 && unit < UNITS.length - 1) {
      value /= 1024;
      unit++;
    }
    // Rounding can reach the next unit: 1023.96 KiB is "1.0 MiB", not "1024 KiB".
    if (value >= 10 && Math.round(value) >= 1024 && unit < UNITS.length - 1) {
      value /= 1024;
      unit++;
    }
    if (value < 10) {
      double tenths = Math.round(value * 10) / 10.0;
      if (tenths < 10) {
        return String.format(Locale.ROOT, "%.1f %s", tenths, UNITS[unit]);
      }
    }
    return Math.round(value) + " " + UNITS[unit];
  }
}
