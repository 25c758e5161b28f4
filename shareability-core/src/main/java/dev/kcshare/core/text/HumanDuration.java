package dev.kcshare.core.text;

/**
 * Spans of time as people say them: {@code 3h ago}, {@code 45m}, {@code 1d 2h}. Whole units,
 * rounded down; pure arithmetic on seconds (the caller reads the clock).
 */
public final class HumanDuration {
  private static final long MINUTE = 60;
  private static final long HOUR = 60 * MINUTE;
  private static final long DAY = 24 * HOUR;

  private HumanDuration() {}

  /**
   * How long ago {@code then} was at {@code now} (epoch seconds): {@code just now} under a minute
   * (and for a time slightly in the future), {@code 5m ago}, {@code 3h ago}, {@code 2d ago}; {@code
   * in the future} for a time more than a minute ahead (a clock that was set back).
   */
  public static String ago(double then, double now) {
    double seconds = now - then;
    if (!Double.isFinite(seconds)) {
      return "at an unknown time";
    }
    if (seconds < -MINUTE) {
      return "in the future";
    }
    if (seconds < MINUTE) {
      return "just now";
    }
    return unit((long) seconds) + " ago";
  }

  /**
   * A span in its largest whole unit, with the next one when it is not zero: {@code 40s}, {@code
   * 5m}, {@code 1h 30m}, {@code 24h}, {@code 2d 3h}. Negative spans read as {@code 0s}.
   */
  public static String span(double seconds) {
    if (!Double.isFinite(seconds) || seconds < 1) {
      return "0s";
    }
    long s = (long) seconds;
    if (s < MINUTE) {
      return s + "s";
    }
    if (s < HOUR) {
      return (s / MINUTE) + "m";
    }
    if (s <= DAY) {
      long minutes = (s % HOUR) / MINUTE;
      return (s / HOUR) + "h" + (minutes == 0 ? "" : " " + minutes + "m");
    }
    long hours = (s % DAY) / HOUR;
    return (s / DAY) + "d" + (hours == 0 ? "" : " " + hours + "h");
  }

  /** Milliseconds as {@code 420 ms}, or {@code 1.3 s} from a second on. */
  public static String millis(long millis) {
    if (millis < 1000) {
      return Math.max(0, millis) + " ms";
    }
    long tenths = millis / 100;
    return (tenths / 10) + "." + (tenths % 10) + " s";
  }

  private static String unit(long s) {
    if (s < HOUR) {
      return (s / MINUTE) + "m";
    }
    if (s < DAY) {
      return (s / HOUR) + "h";
    }
    return (s / DAY) + "d";
  }
}
