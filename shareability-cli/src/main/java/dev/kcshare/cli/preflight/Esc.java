package dev.kcshare.cli.preflight;

/**
 * Display escaping of untrusted strings ({@code records.md} §10): at most {@code limit} code
 * points, one line of printable characters. A local stand-in for the core's {@code
 * dev.kcshare.core.text.Escaper}, which lives on another branch; replace the calls when it lands.
 */
final class Esc {
  static final int SHORT_LIMIT = 120;
  static final int LONG_LIMIT = 500;

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private Esc() {}

  /** The first {@code limit} code points, escaped, with {@code ...} appended when cut. */
  static String esc(String s, int limit) {
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
      out.append("...");
    }
    return out.toString();
  }

  /**
   * The LAST {@code limit} code points, escaped, with {@code ...} prepended when cut: for stderr
   * tails, whose end (the last message before the server gave up) is what matters.
   */
  static String escTail(String s, int limit) {
    int count = s.codePointCount(0, s.length());
    if (count <= limit) {
      return esc(s, limit);
    }
    return "..." + esc(s.substring(s.offsetByCodePoints(0, count - limit)), limit);
  }

  private static void append(StringBuilder out, int cp) {
    switch (cp) {
      case '\\' -> out.append("\\\\");
      case '"' -> out.append("\\\"");
      case '\n' -> out.append("\\n");
      case '\r' -> out.append("\\r");
      case '\t' -> out.append("\\t");
      default -> {
        if (printable(cp)) {
          out.appendCodePoint(cp);
        } else if (cp <= 0xff) {
          out.append("\\x").append(HEX[cp >> 4]).append(HEX[cp & 0xf]);
        } else if (cp <= 0xffff) {
          out.append("\\u");
          hex(out, cp, 4);
        } else {
          out.append("\\U");
          hex(out, cp, 8);
        }
      }
    }
  }

  private static void hex(StringBuilder out, int cp, int digits) {
    for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
      out.append(HEX[(cp >> shift) & 0xf]);
    }
  }

  private static boolean printable(int cp) {
    if (cp == ' ') {
      return true;
    }
    return switch (Character.getType(cp)) {
      case Character.CONTROL,
          Character.FORMAT,
          Character.SURROGATE,
          Character.PRIVATE_USE,
          Character.UNASSIGNED,
          Character.LINE_SEPARATOR,
          Character.PARAGRAPH_SEPARATOR,
          Character.SPACE_SEPARATOR ->
          false;
      default -> true;
    };
  }
}
