package dev.kcshare.core.json.internal;

import java.util.Comparator;

/**
 * Orders strings by Unicode code point, which is the order every sorted map and list in kcshare's
 * formats uses. It differs from {@link String#compareTo} (UTF-16 code units) only for characters
 * above U+FFFF.
 */
public final class CodePoints {
  /** The code-point order as a comparator. */
  public static final Comparator<String> ORDER = CodePoints::compare;

  private CodePoints() {}

  /** Compares two strings by code point. */
  public static int compare(String a, String b) {
    // UTF-16 order and code point order agree unless the first difference involves a surrogate,
    // so the common case is a plain char comparison.
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char ca = a.charAt(i);
      char cb = b.charAt(i);
      if (ca != cb) {
        return Character.isSurrogate(ca) || Character.isSurrogate(cb)
            ? compareByCodePoint(a, b)
            : ca - cb;
      }
    }
    return a.length() - b.length();
  }

  /** The plain code point walk, for the rare differences that involve a surrogate. */
  private static int compareByCodePoint(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }
}
