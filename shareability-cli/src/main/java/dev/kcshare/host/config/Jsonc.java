package dev.kcshare.host.config;

import dev.kcshare.host.json.JsonSyntaxException;

/**
 * Turns JSON with comments (JSONC, as VS Code writes it) into plain JSON: {@code //} and {@code /*
 * ... *}{@code /} comments and trailing commas before {@code ]} or {@code }} become spaces. Every
 * other character, and every line break, stays where it was, so the JSON parser's line and column
 * numbers still point into the operator's file. Text inside string literals is never touched.
 */
final class Jsonc {
  private Jsonc() {}

  /**
   * The same text with comments and trailing commas blanked.
   *
   * @throws JsonSyntaxException for a block comment that is never closed
   */
  static String strip(String text) throws JsonSyntaxException {
    return blankTrailingCommas(blankComments(text));
  }

  private static String blankComments(String text) throws JsonSyntaxException {
    char[] out = text.toCharArray();
    int n = out.length;
    int i = 0;
    while (i < n) {
      char c = out[i];
      if (c == '"') {
        i = skipString(out, i);
      } else if (c == '/' && i + 1 < n && out[i + 1] == '/') {
        while (i < n && out[i] != '\n' && out[i] != '\r') {
          out[i++] = ' ';
        }
      } else if (c == '/' && i + 1 < n && out[i + 1] == '*') {
        int start = i;
        out[i++] = ' ';
        out[i++] = ' ';
        while (i < n && !(out[i] == '*' && i + 1 < n && out[i + 1] == '/')) {
          if (out[i] != '\n' && out[i] != '\r') {
            out[i] = ' ';
          }
          i++;
        }
        if (i >= n) {
          throw syntaxAt(text, start, "unterminated /* comment");
        }
        out[i++] = ' ';
        out[i++] = ' ';
      } else {
        i++;
      }
    }
    return new String(out);
  }

  /** Blanks a comma whose next non-whitespace character closes an array or object. */
  private static String blankTrailingCommas(String text) {
    char[] out = text.toCharArray();
    int n = out.length;
    int i = 0;
    while (i < n) {
      char c = out[i];
      if (c == '"') {
        i = skipString(out, i);
        continue;
      }
      if (c == ',') {
        int j = i + 1;
        while (j < n && isJsonWhitespace(out[j])) {
          j++;
        }
        if (j < n && (out[j] == '}' || out[j] == ']')) {
          out[i] = ' ';
        }
      }
      i++;
    }
    return new String(out);
  }

  /**
   * The index just past the string literal opening at {@code start}; the end of the text when the
   * literal is unterminated (the JSON parser reports that).
   */
  private static int skipString(char[] s, int start) {
    int i = start + 1;
    while (i < s.length) {
      char c = s[i];
      if (c == '\\') {
        i += 2;
      } else if (c == '"') {
        return i + 1;
      } else {
        i++;
      }
    }
    return s.length;
  }

  private static boolean isJsonWhitespace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
  }

  private static JsonSyntaxException syntaxAt(String text, int index, String message) {
    int line = 1;
    int column = 1;
    for (int i = 0; i < index; i++) {
      char c = text.charAt(i);
      if (c == '\n' || (c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n'))) {
        line++;
        column = 1;
      } else if (c != '\r') {
        column++;
      }
    }
    return new JsonSyntaxException(message, line, column);
  }
}
