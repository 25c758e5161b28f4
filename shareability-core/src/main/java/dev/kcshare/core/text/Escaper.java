package dev.kcshare.core.text;

/**
 * Makes an untrusted string safe to print: bounded in length and rendered as one line of printable
 * characters (docs/design.md#escaping).
 *
 * <p>Every server-provided string (versions, {@code serverInfo} fields, tool names, error texts,
 * stderr tails) and every server name, env name and identity string goes through {@link #esc}
 * before it reaches a human-readable output or a log, so a newline can never forge a second log
 * entry and an escape sequence can never recolour the terminal. Characters are escaped rather than
 * dropped, which keeps the evidence that the server sent them.
 */
public final class Escaper {
  /** Limit in code points for versions, server names, env names, tool names, serverInfo fields. */
  public static final int SHORT_LIMIT = 120;

  /** Limit in code points for error texts and stderr tails. */
  public static final int LONG_LIMIT = 500;

  private static final String TRUNCATION_MARK = "...";
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private Escaper() {}

  /**
   * Keeps the first {@code limit} code points of {@code s} (a lone surrogate counts as one),
   * escapes them and appends {@code ...} when anything was cut. The result never contains a
   * character of general category Cc, Cf, Cs, Co, Cn, Zl, Zp or Zs (other than U+0020).
   *
   * @throws IllegalArgumentException if {@code limit} is negative
   */
  public static String esc(String s, int limit) {
    if (limit < 0) {
      throw new IllegalArgumentException("limit must not be negative: " + limit);
    }
    if (isPlainAscii(s, limit)) {
      return s;
    }
    StringBuilder out = new StringBuilder(Math.min(s.length(), limit) + 8);
    int i = 0;
    int kept = 0;
    while (i < s.length() && kept < limit) {
      int cp = s.codePointAt(i);
      i += Character.charCount(cp);
      kept++;
      append(out, cp);
    }
    if (i < s.length()) {
      out.append(TRUNCATION_MARK);
    }
    return out.toString();
  }

  /**
   * The LAST {@code limit} code points of {@code s}, escaped as by {@link #esc}, with {@code ...}
   * prepended when cut: for stderr tails, whose end (the last message before a server gave up) is
   * what matters.
   */
  public static String escTail(String s, int limit) {
    int count = s.codePointCount(0, s.length());
    if (count <= limit) {
      return esc(s, limit);
    }
    return "..." + esc(s.substring(s.offsetByCodePoints(0, count - limit)), limit);
  }

  /**
   * Reads back what {@link #esc} wrote: a backslash followed by {@code n}, {@code r}, {@code t}, a
   * backslash, a quote, {@code xNN}, {@code uNNNN} or {@code UNNNNNNNN} becomes the character it
   * stands for; anything else (a truncation mark, a stray backslash) is kept as it is. For outputs
   * that carry their own escaping, such as JSON, so the text is escaped once.
   */
  public static String unescape(String escaped) {
    if (escaped.indexOf('\\') < 0) {
      return escaped;
    }
    StringBuilder out = new StringBuilder(escaped.length());
    int i = 0;
    while (i < escaped.length()) {
      char c = escaped.charAt(i);
      if (c != '\\' || i + 1 >= escaped.length()) {
        out.append(c);
        i++;
        continue;
      }
      char n = escaped.charAt(i + 1);
      int digits =
          switch (n) {
            case 'x' -> 2;
            case 'u' -> 4;
            case 'U' -> 8;
            default -> 0;
          };
      switch (n) {
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case '\\' -> out.append('\\');
        case '"' -> out.append('"');
        default -> {
          int cp = digits == 0 ? -1 : hexAt(escaped, i + 2, digits);
          if (cp < 0) {
            out.append(c);
            i++;
            continue;
          }
          out.appendCodePoint(cp);
          i += 2 + digits;
          continue;
        }
      }
      i += 2;
    }
    return out.toString();
  }

  /** The code point written as {@code digits} lowercase hex digits at {@code from}, or -1. */
  private static int hexAt(String s, int from, int digits) {
    if (from + digits > s.length()) {
      return -1;
    }
    int value = 0;
    for (int k = from; k < from + digits; k++) {
      int d = Character.digit(s.charAt(k), 16);
      if (d < 0) {
        return -1;
      }
      value = value * 16 + d;
    }
    return value <= Character.MAX_CODE_POINT ? value : -1;
  }

  /** {@link #esc} inside double quotes, the form logs use. */
  public static String quoted(String s, int limit) {
    return '"' + esc(s, limit) + '"';
  }

  /**
   * Whether the code point must be written as an escape: general category Cc, Cf, Cs, Co, Cn, Zl,
   * Zp, or Zs other than U+0020. Judged by the running JDK's Unicode tables.
   */
  public static boolean isNonPrintable(int codePoint) {
    return switch (Character.getType(codePoint)) {
      case Character.CONTROL,
          Character.FORMAT,
          Character.SURROGATE,
          Character.PRIVATE_USE,
          Character.UNASSIGNED,
          Character.LINE_SEPARATOR,
          Character.PARAGRAPH_SEPARATOR ->
          true;
      case Character.SPACE_SEPARATOR -> codePoint != ' ';
      default -> false;
    };
  }

  /** True when {@code s} is short enough and made only of characters written as themselves. */
  private static boolean isPlainAscii(String s, int limit) {
    if (s.length() > limit) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c > 0x7e || c == '\\' || c == '"') {
        return false;
      }
    }
    return true;
  }

  private static void append(StringBuilder out, int cp) {
    switch (cp) {
      case '\\' -> out.append("\\\\");
      case '"' -> out.append("\\\"");
      case '\n' -> out.append("\\n");
      case '\r' -> out.append("\\r");
      case '\t' -> out.append("\\t");
      default -> {
        if (!isNonPrintable(cp)) {
          out.appendCodePoint(cp);
        } else if (cp <= 0xff) {
          hex(out.append("\\x"), cp, 2);
        } else if (cp <= 0xffff) {
          hex(out.append("\\u"), cp, 4);
        } else {
          hex(out.append("\\U"), cp, 8);
        }
      }
    }
  }

  private static void hex(StringBuilder out, int value, int digits) {
    for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
      out.append(HEX[(value >>> shift) & 0xf]);
    }
  }
}
