package dev.kcshare.host.config;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import dev.kcshare.host.json.JsonSyntaxException;
import java.io.IOException;

/**
 * Turns JSON with comments (JSONC, as VS Code writes it) into plain JSON: {@code //} and {@code /*
 * ... *}{@code /} comments and trailing commas before {@code ]} or {@code }} become spaces. Every
 * other character, and every line break, stays where it was, so the JSON parser's line and column
 * numbers still point into the operator's file. Text inside string literals is never touched.
 *
 * <p>Jackson reads the text ({@link JsonReadFeature#ALLOW_JAVA_COMMENTS}, {@link
 * JsonReadFeature#ALLOW_TRAILING_COMMA}, and the non-numeric numbers the config reader accepts):
 * between the start of one token it reports and the start of the next there is only that token's
 * literal, whitespace, comments and at most one separator, and that is all that is blanked. Text
 * Jackson cannot read is blanked up to where it stopped and left as it is from there, so the strict
 * reader that follows reports the error, at its place, in its own words.
 */
final class Jsonc {
  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
          .enable(JsonReadFeature.ALLOW_TRAILING_COMMA)
          .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
          // The reader that parses the result applies the limits and words their errors.
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxNestingDepth(Integer.MAX_VALUE)
                  .maxNumberLength(Integer.MAX_VALUE)
                  .maxStringLength(Integer.MAX_VALUE)
                  .maxNameLength(Integer.MAX_VALUE)
                  .build())
          .build();

  private Jsonc() {}

  /**
   * The same text with comments and trailing commas blanked.
   *
   * @throws JsonSyntaxException for a block comment that is never closed
   */
  static String strip(String text) throws JsonSyntaxException {
    char[] out = text.toCharArray();
    // A byte-order mark is the reader's to skip; Jackson's offsets count from after it.
    int base = text.startsWith("\uFEFF") ? 1 : 0;
    int at = base; // just past the last token read: what follows it is not blanked yet
    try (JsonParser p = FACTORY.createParser(base == 0 ? text : text.substring(base))) {
      for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
        int start = base + (int) p.currentTokenLocation().getCharOffset();
        blankGap(out, at, start, t == JsonToken.END_ARRAY || t == JsonToken.END_OBJECT);
        at = pastLiteral(out, start);
      }
      blankGap(out, at, out.length, false);
    } catch (JsonProcessingException e) {
      // From the last token read on: comments blanked to the end (strings skipped), trailing
      // commas left. Jackson also refuses a root-level number followed at once by a comment,
      // which the reader then accepts.
      int open = blankUpTo(out, at, out.length);
      if (open >= 0) {
        throw syntaxAt(text, open, "unterminated /* comment");
      }
    } catch (IOException e) {
      // nothing else is read from a string; the reader reports what it finds
    }
    return new String(out);
  }

  /**
   * Blanks the comments in {@code [from, to)}, text Jackson has read as whitespace, comments and at
   * most one separator; the separator too when it is a comma before a closer ({@code trailing}).
   */
  private static void blankGap(char[] out, int from, int to, boolean trailing) {
    int i = from;
    while (i < to) {
      char c = out[i];
      if (c == '/' && i + 1 < to && (out[i + 1] == '/' || out[i + 1] == '*')) {
        i = blankComment(out, i, to);
      } else {
        if (c == ',' && trailing) {
          out[i] = ' ';
        }
        i++;
      }
    }
  }

  /**
   * Blanks the comments between {@code from} and {@code to}, where Jackson stopped reading,
   * skipping whatever literals it read meanwhile; returns the start of a block comment that is
   * never closed, or -1.
   */
  private static int blankUpTo(char[] out, int from, int to) {
    int i = from;
    while (i < to) {
      char c = out[i];
      if (c == '/' && i + 1 < out.length && (out[i + 1] == '/' || out[i + 1] == '*')) {
        int end = blankComment(out, i, out.length);
        if (end < 0) {
          return i;
        }
        i = end;
      } else if (c == '"') {
        i = skipString(out, i);
      } else {
        i++;
      }
    }
    return -1;
  }

  /**
   * Blanks the comment starting at {@code start} (line breaks stay); returns the index past it, or
   * -1, with nothing blanked, for a block comment not closed before {@code limit}.
   */
  private static int blankComment(char[] out, int start, int limit) {
    int i = start + 2;
    if (out[start + 1] == '/') {
      while (i < limit && out[i] != '\n' && out[i] != '\r') {
        i++;
      }
      blank(out, start, i);
      return i;
    }
    while (i + 1 < limit && !(out[i] == '*' && out[i + 1] == '/')) {
      i++;
    }
    if (i + 1 >= limit) {
      return -1;
    }
    blank(out, start, i + 2);
    return i + 2;
  }

  private static void blank(char[] out, int from, int to) {
    for (int i = from; i < to; i++) {
      if (out[i] != '\n' && out[i] != '\r') {
        out[i] = ' ';
      }
    }
  }

  /** The index just past the literal of the token Jackson reported at {@code start}. */
  private static int pastLiteral(char[] s, int start) {
    char c = s[start];
    if (c == '"') {
      return skipString(s, start);
    }
    if (c == '{' || c == '}' || c == '[' || c == ']') {
      return start + 1;
    }
    int i = start; // a number, true, false, null, NaN, Infinity: no delimiter inside
    while (i < s.length && !isDelimiter(s[i])) {
      i++;
    }
    return i;
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

  private static boolean isDelimiter(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ':' || c == '/'
        || c == '"' || c == '{' || c == '}' || c == '[' || c == ']';
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
