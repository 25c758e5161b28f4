package dev.kcshare.host.report;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * The record files' epoch seconds as the instants verdicts carry, and back: an instant is the
 * nanosecond nearest the stored value, so turning it back gives the stored value again (for any
 * time after 1970-04 and any value written to the nanosecond), and output shows what the file
 * holds.
 */
public final class EpochSeconds {
  private EpochSeconds() {}

  private static final BigDecimal FIRST = BigDecimal.valueOf(Instant.MIN.getEpochSecond());
  private static final BigDecimal LAST = BigDecimal.valueOf(Instant.MAX.getEpochSecond() + 1);

  /**
   * Epoch seconds (fractional) as the nearest nanosecond; a non-finite value is the epoch, and a
   * finite value beyond an instant's range (a Python writer can store up to {@code 1.8e308}) is the
   * end of the range it lies beyond (docs/formats.md, "How kcshare reads").
   */
  public static Instant instant(double epochSeconds) {
    if (!Double.isFinite(epochSeconds)) {
      return Instant.EPOCH;
    }
    BigDecimal exact = new BigDecimal(epochSeconds);
    if (exact.compareTo(FIRST) < 0) {
      return Instant.MIN;
    }
    if (exact.compareTo(LAST) >= 0) {
      return Instant.MAX;
    }
    BigDecimal nanos = exact.movePointRight(9).setScale(0, java.math.RoundingMode.HALF_EVEN);
    BigDecimal[] parts = nanos.divideAndRemainder(BigDecimal.valueOf(1_000_000_000L));
    long seconds = parts[0].longValueExact();
    long nano = parts[1].longValueExact();
    return Instant.ofEpochSecond(seconds, nano);
  }

  /** An instant as epoch seconds, the double nearest it. */
  public static double seconds(Instant at) {
    return BigDecimal.valueOf(at.getEpochSecond())
        .add(BigDecimal.valueOf(at.getNano(), 9))
        .doubleValue();
  }
}
