package dev.kcshare.embed;

import java.time.Instant;
import java.time.InstantSource;

/** The record files' epoch seconds as the API's {@link Instant}s, and back. */
final class Times {
  private Times() {}

  /** Epoch seconds (fractional) as an instant, to the millisecond; a non-finite value is 0. */
  static Instant instant(double epochSeconds) {
    if (!Double.isFinite(epochSeconds)) {
      return Instant.EPOCH;
    }
    return Instant.ofEpochMilli(Math.round(epochSeconds * 1000.0));
  }

  /** The source's current time as epoch seconds, as the record files keep it. */
  static double seconds(InstantSource source) {
    return source.millis() / 1000.0;
  }
}
