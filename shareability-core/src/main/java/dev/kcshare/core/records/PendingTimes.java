package dev.kcshare.core.records;

/**
 * When the not yet written observations of one hazard code on one (name, identity) were made: a few
 * time windows, each with its first and last time and how many observations it holds. Held in
 * memory only (docs/design.md#clearing: a clear is a point in time, so a writer must know which of
 * its observations a clear stamped at T covers).
 *
 * <p>Observations less than {@value #WINDOW_SECONDS} s after a window's first one join it, so a
 * flood costs no allocation; beyond {@value #MAX_WINDOWS} windows the two oldest are joined. A
 * clear at T drops every window that ended at or before T and keeps every window that began after
 * it; a window T falls inside keeps only its last observation (counted once): at least that one is
 * newer than the clear, and none that might be older is ever counted again. Counts after a clear
 * are therefore exact unless a clear lands inside a window, and never include an observation made
 * before the clear.
 *
 * <p>Not thread-safe: the owning ledger cell guards it.
 */
final class PendingTimes {
  static final int MAX_WINDOWS = 16;
  static final double WINDOW_SECONDS = 1.0;

  private double[] first = new double[4];
  private double[] last = new double[4];
  private long[] count = new long[4];
  private int size;

  boolean isEmpty() {
    return size == 0;
  }

  /** Adds one observation at {@code time} (finite). */
  void add(double time) {
    if (size > 0) {
      int top = size - 1;
      if (Math.abs(time - first[top]) < WINDOW_SECONDS) {
        count[top] = saturated(count[top], 1);
        first[top] = Math.min(first[top], time);
        last[top] = Math.max(last[top], time);
        return;
      }
    }
    append(time, time, 1);
  }

  private void append(double from, double to, long n) {
    if (size == MAX_WINDOWS) {
      // Join the two oldest windows: only the oldest observations lose their exact times.
      first[0] = Math.min(first[0], first[1]);
      last[0] = Math.max(last[0], last[1]);
      count[0] = saturated(count[0], count[1]);
      System.arraycopy(first, 2, first, 1, size - 2);
      System.arraycopy(last, 2, last, 1, size - 2);
      System.arraycopy(count, 2, count, 1, size - 2);
      size--;
    }
    if (size == first.length) {
      int grown = Math.min(MAX_WINDOWS, size * 2);
      first = java.util.Arrays.copyOf(first, grown);
      last = java.util.Arrays.copyOf(last, grown);
      count = java.util.Arrays.copyOf(count, grown);
    }
    first[size] = from;
    last[size] = to;
    count[size] = n;
    size++;
  }

  /** Puts {@code older}'s windows before this one's (a failed write gives its windows back). */
  void prepend(PendingTimes older) {
    if (older.size == 0) {
      return;
    }
    PendingTimes joined = new PendingTimes();
    for (int i = 0; i < older.size; i++) {
      joined.append(older.first[i], older.last[i], older.count[i]);
    }
    for (int i = 0; i < size; i++) {
      joined.append(first[i], last[i], count[i]);
    }
    first = joined.first;
    last = joined.last;
    count = joined.count;
    size = joined.size;
  }

  /** The number of observations held (at most {@link Long#MAX_VALUE}). */
  long total() {
    long n = 0;
    for (int i = 0; i < size; i++) {
      n = saturated(n, count[i]);
    }
    return n;
  }

  /** The latest time held; only meaningful when not empty. */
  double latest() {
    double t = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < size; i++) {
      t = Math.max(t, last[i]);
    }
    return t;
  }

  /**
   * Applies a clear stamped at {@code marker}: see the class comment.
   *
   * @return true iff anything was dropped
   */
  boolean clearUpTo(double marker) {
    boolean dropped = false;
    int kept = 0;
    for (int i = 0; i < size; i++) {
      if (last[i] <= marker) {
        dropped = true;
        continue;
      }
      double from = first[i];
      long n = count[i];
      if (from <= marker) {
        dropped = true;
        from = last[i];
        n = 1;
      }
      first[kept] = from;
      last[kept] = last[i];
      count[kept] = n;
      kept++;
    }
    size = kept;
    return dropped;
  }

  static long saturated(long a, long b) {
    long sum = a + b;
    return sum < 0 ? Long.MAX_VALUE : sum;
  }
}
