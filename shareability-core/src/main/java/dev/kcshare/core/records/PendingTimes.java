package dev.kcshare.core.records;

import java.util.Arrays;

/**
 * When the not yet written observations of one hazard code on one (name, identity) were made: time
 * windows in time order, each with its first and last time and how many observations it holds. Held
 * in memory only (docs/design.md#clearing: a clear is a point in time, so a writer must know which
 * of its observations a clear stamped at T covers).
 *
 * <p>An observation at a time a window already spans joins it, so a repeat within one clock tick
 * costs no allocation; any other time opens a window of its own. Beyond {@value #MAX_WINDOWS}
 * windows the two neighbours closest in time are joined. A clear at T drops every window that ended
 * at or before T and keeps every window that began after it; a window T falls inside keeps only its
 * last observation (counted once): at least that one is newer than the clear, and none that might
 * be older is ever counted again. Counts after a clear are therefore exact as long as no more than
 * {@value #MAX_WINDOWS} distinct times were recorded since the last write, and never include an
 * observation made at or before the clear.
 *
 * <p>Not thread-safe: the owning ledger cell guards it.
 */
final class PendingTimes {
  static final int MAX_WINDOWS = 64;

  private double[] first = new double[4];
  private double[] last = new double[4];
  private long[] count = new long[4];
  private int size;

  boolean isEmpty() {
    return size == 0;
  }

  /** Adds one observation at {@code time} (finite). */
  void add(double time) {
    add(time, time, 1);
  }

  /** Adds {@code n} observations spanning [{@code from}, {@code to}], keeping time order. */
  private void add(double from, double to, long n) {
    // Usually the newest: search from the end.
    int i = size - 1;
    while (i >= 0 && first[i] > to) {
      i--;
    }
    if (i >= 0 && last[i] >= from) {
      // Overlaps window i (and possibly later ones): join them all.
      first[i] = Math.min(first[i], from);
      last[i] = Math.max(last[i], to);
      count[i] = saturated(count[i], n);
      int j = i + 1;
      while (j < size && first[j] <= last[i]) {
        last[i] = Math.max(last[i], last[j]);
        count[i] = saturated(count[i], count[j]);
        j++;
      }
      remove(i + 1, j - (i + 1));
      return;
    }
    insert(i + 1, from, to, n);
    if (size > MAX_WINDOWS) {
      joinClosest();
    }
  }

  private void insert(int at, double from, double to, long n) {
    if (size == first.length) {
      int grown = Math.min(MAX_WINDOWS + 1, size * 2);
      first = Arrays.copyOf(first, grown);
      last = Arrays.copyOf(last, grown);
      count = Arrays.copyOf(count, grown);
    }
    System.arraycopy(first, at, first, at + 1, size - at);
    System.arraycopy(last, at, last, at + 1, size - at);
    System.arraycopy(count, at, count, at + 1, size - at);
    first[at] = from;
    last[at] = to;
    count[at] = n;
    size++;
  }

  private void remove(int at, int n) {
    if (n <= 0) {
      return;
    }
    System.arraycopy(first, at + n, first, at, size - at - n);
    System.arraycopy(last, at + n, last, at, size - at - n);
    System.arraycopy(count, at + n, count, at, size - at - n);
    size -= n;
  }

  /** Joins the two neighbouring windows with the smallest gap between them. */
  private void joinClosest() {
    int best = 0;
    double gap = Double.POSITIVE_INFINITY;
    for (int i = 0; i + 1 < size; i++) {
      double g = first[i + 1] - last[i];
      if (g < gap) {
        gap = g;
        best = i;
      }
    }
    last[best] = Math.max(last[best], last[best + 1]);
    count[best] = saturated(count[best], count[best + 1]);
    remove(best + 1, 1);
  }

  /** Adds {@code older}'s windows to this one's (a failed write gives its windows back). */
  void prepend(PendingTimes older) {
    for (int i = 0; i < older.size; i++) {
      add(older.first[i], older.last[i], older.count[i]);
    }
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
    return size == 0 ? Double.NEGATIVE_INFINITY : last[size - 1];
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
