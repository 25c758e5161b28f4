package dev.kcshare.core.text;

import java.util.Collection;
import org.jspecify.annotations.Nullable;

/**
 * The configured name an operator most likely meant when they typed one that is not configured
 * ("did you mean {@code good}?").
 *
 * <p>Names are compared by code point, ignoring letter case, with the optimal string alignment
 * distance: one insertion, deletion, substitution or swap of two neighbouring characters costs 1. A
 * candidate is suggested when its distance is at most {@link #threshold} for the typed name's
 * length (1 up to 3 characters, 2 up to 6, 3 beyond), or when one name starts with the other and
 * the shorter has at least 3 characters ({@code files} for {@code files-mcp}). The closest
 * candidate wins; ties go to the smaller distance with letter case counted, then to the shorter
 * candidate, then to the one listed first.
 *
 * <pre>{@code
 * String hint = ClosestName.closest("godo", List.of("good", "search")); // "good"
 * }</pre>
 */
public final class ClosestName {
  /** Longer names are not compared (their distance is not computed; they are never suggested). */
  static final int MAX_LENGTH = 200;

  /** Prefix matches shorter than this are not suggested ({@code a} is a prefix of too much). */
  static final int MIN_PREFIX = 3;

  private ClosestName() {}

  /**
   * The largest distance a suggestion for a name of {@code length} code points may have: 0 for one
   * character (only a letter-case difference), 1 up to 3, 2 up to 6, 3 beyond. It is always below
   * the length, so a name is never suggested for one that shares none of its characters.
   */
  public static int threshold(int length) {
    if (length <= 1) {
      return 0;
    }
    if (length <= 3) {
      return 1;
    }
    return length <= 6 ? 2 : 3;
  }

  /**
   * The candidate closest to {@code name}, or null when none is close enough (or {@code name} is
   * empty). A candidate equal to {@code name} is returned as is.
   */
  public static @Nullable String closest(String name, Collection<String> candidates) {
    int[] typed = name.codePoints().toArray();
    if (typed.length == 0 || typed.length > MAX_LENGTH) {
      return null;
    }
    int[] typedLower = lower(typed);
    int limit = threshold(typed.length);
    String best = null;
    long bestRank = Long.MAX_VALUE;
    for (String candidate : candidates) {
      int[] c = candidate.codePoints().toArray();
      if (c.length == 0 || c.length > MAX_LENGTH) {
        continue;
      }
      int folded = distance(typedLower, lower(c));
      boolean near = folded <= limit;
      if (!near && !prefixOfOther(typedLower, lower(c))) {
        continue;
      }
      // Near matches rank before prefix-only matches; then by distance, exact case, length.
      long rank =
          ((near ? 0L : 1L) << 60)
              | ((long) folded << 40)
              | ((long) distance(typed, c) << 20)
              | c.length;
      if (rank < bestRank) {
        bestRank = rank;
        best = candidate;
      }
    }
    return best;
  }

  /**
   * The optimal string alignment distance between two strings, by code point and with letter case
   * counted: the fewest insertions, deletions, substitutions and swaps of neighbouring characters
   * that turn one into the other, no substring edited twice.
   */
  public static int distance(String a, String b) {
    return distance(a.codePoints().toArray(), b.codePoints().toArray());
  }

  private static int distance(int[] a, int[] b) {
    int n = a.length;
    int m = b.length;
    // Three rows of the dynamic programme: two back (for swaps), one back, current.
    int[] back2 = new int[m + 1];
    int[] back1 = new int[m + 1];
    int[] row = new int[m + 1];
    for (int j = 0; j <= m; j++) {
      back1[j] = j;
    }
    for (int i = 1; i <= n; i++) {
      row[0] = i;
      for (int j = 1; j <= m; j++) {
        int cost = a[i - 1] == b[j - 1] ? 0 : 1;
        int d = Math.min(Math.min(back1[j] + 1, row[j - 1] + 1), back1[j - 1] + cost);
        if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
          d = Math.min(d, back2[j - 2] + 1);
        }
        row[j] = d;
      }
      int[] spare = back2;
      back2 = back1;
      back1 = row;
      row = spare;
    }
    return back1[m];
  }

  private static boolean prefixOfOther(int[] a, int[] b) {
    int[] shorter = a.length <= b.length ? a : b;
    int[] longer = shorter == a ? b : a;
    if (shorter.length < MIN_PREFIX) {
      return false;
    }
    for (int i = 0; i < shorter.length; i++) {
      if (shorter[i] != longer[i]) {
        return false;
      }
    }
    return true;
  }

  private static int[] lower(int[] codePoints) {
    int[] out = new int[codePoints.length];
    for (int i = 0; i < codePoints.length; i++) {
      out[i] = Character.toLowerCase(codePoints[i]);
    }
    return out;
  }
}
