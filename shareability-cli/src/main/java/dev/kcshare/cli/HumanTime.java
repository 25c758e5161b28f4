package dev.kcshare.cli;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Epoch seconds as people read them. */
final class HumanTime {
  private static final DateTimeFormatter FORMAT =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

  private HumanTime() {}

  /** {@code 2024-04-01 19:33:20 UTC}, or {@code never} for 0 or a non-finite time. */
  static String format(double epochSeconds) {
    if (!Double.isFinite(epochSeconds) || epochSeconds <= 0) {
      return "never";
    }
    return FORMAT.format(Instant.ofEpochMilli((long) (epochSeconds * 1000)));
  }
}
