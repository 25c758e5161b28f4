package dev.kcshare.cli;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Times as people read them: the API's instants, and the epoch seconds of the record files. */
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

  /** The last instant a date can show: an instant's range reaches past the last date's year. */
  private static final Instant LAST_SHOWN = LocalDateTime.MAX.toInstant(ZoneOffset.UTC);

  /**
   * {@code 2024-04-01 19:33:20 UTC}, or {@code never} for the epoch or a time before it; a time
   * past the year 999,999,999 (a record file's far-off stored time, docs/formats.md) shows as the
   * last second of that year.
   */
  static String format(Instant at) {
    if (!at.isAfter(Instant.EPOCH)) {
      return "never";
    }
    return FORMAT.format(at.isAfter(LAST_SHOWN) ? LAST_SHOWN : at);
  }
}
