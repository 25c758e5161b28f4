package dev.kcshare.host.json;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * The top level of a record file, scanned in one pass over its bytes ({@link JsonReader#stream}):
 * every byte is validated (JSON syntax, strict UTF-8, the nesting limit, the number length limit),
 * but only the values a {@link JsonReader.TopLevel} wants are kept — their bytes are parsed into
 * plain values by the Jackson-based reader — while everything else is skipped without allocating.
 * So a reader that needs 200 of 200,000 cache rows pays for a byte loop over the rest, not for
 * building them. Not thread-safe; one scanner per document.
 */
final class JsonScanner {
  private static final int BUFFER = 64 * 1024;
  private static final int MAX_NUMBER_LENGTH = 100_000;
  private static final byte OBJECT = 1;
  private static final byte ARRAY = 2;

  private final InputStream in;
  private final JsonReader values;
  private final int depthLimit;
  private final byte[] buf = new byte[BUFFER];
  private int pos;
  private int lim;
  private long consumed; // bytes before buf[0]
  private int line = 1;
  private long lineStart;
  private @Nullable ByteArrayOutputStream capture;
  private int captureFrom;
  private final byte[] stack;

  JsonScanner(InputStream in, JsonReader values, int depthLimit) {
    this.in = in;
    this.values = values;
    this.depthLimit = depthLimit;
    this.stack = new byte[depthLimit + 1];
  }

  /** Scans the whole document, handing its top level to {@code handler}. */
  void scan(JsonReader.TopLevel handler) throws IOException, JsonSyntaxException {
    skipBom();
    skipWs();
    int b = peek();
    if (b < 0) {
      throw new JsonSyntaxException("empty input: no JSON value", -1, -1);
    }
    if (b != '{') {
      handler.root(keep(0));
      requireEnd();
      return;
    }
    pos++;
    skipWs();
    if (peek() == '}') {
      pos++;
      requireEnd();
      return;
    }
    while (true) {
      skipWs();
      String name = key();
      skipWs();
      expect(':');
      skipWs();
      if (peek() == '{' && handler.streams(name)) {
        pos++;
        if (depthLimit < 2) {
          throw tooDeep();
        }
        handler.begin(name);
        skipWs();
        if (peek() == '}') {
          pos++;
        } else {
          while (true) {
            skipWs();
            String key = key();
            skipWs();
            expect(':');
            skipWs();
            if (handler.wants(name, key)) {
              handler.entry(name, key, keep(2));
            } else {
              skipValue(2);
            }
            skipWs();
            int c = next();
            if (c == '}') {
              break;
            }
            if (c != ',') {
              throw unexpected(c, "',' or '}'");
            }
          }
        }
      } else {
        handler.member(name, keep(1));
      }
      skipWs();
      int c = next();
      if (c == '}') {
        break;
      }
      if (c != ',') {
        throw unexpected(c, "',' or '}'");
      }
    }
    requireEnd();
  }

  /** Scans one value and parses its bytes into a plain value. */
  private @Nullable Object keep(int baseDepth) throws IOException, JsonSyntaxException {
    int startLine = line;
    int startColumn = column();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    capture = bytes;
    captureFrom = pos;
    try {
      skipValue(baseDepth);
      bytes.write(buf, captureFrom, pos - captureFrom);
    } finally {
      capture = null;
    }
    return values.parseSlice(bytes.toByteArray(), baseDepth, startLine, startColumn);
  }

  /** Validates and consumes one value; {@code baseDepth} containers enclose it. */
  private void skipValue(int baseDepth) throws IOException, JsonSyntaxException {
    int depth = 0;
    while (true) {
      // A value starts here.
      skipWs();
      int b = peek();
      switch (b) {
        case '{' -> {
          push(OBJECT, baseDepth, depth++);
          pos++;
          skipWs();
          if (peek() == '}') {
            pos++;
            depth--;
            break;
          }
          memberName();
          continue;
        }
        case '[' -> {
          push(ARRAY, baseDepth, depth++);
          pos++;
          skipWs();
          if (peek() == ']') {
            pos++;
            depth--;
            break;
          }
          continue;
        }
        case '"' -> {
          pos++;
          skipString();
        }
        case 't' -> literal("true");
        case 'f' -> literal("false");
        case 'n' -> literal("null");
        case 'N' -> literal("NaN");
        case 'I' -> literal("Infinity");
        default -> {
          if (b == '-' || (b >= '0' && b <= '9')) {
            number();
          } else {
            throw unexpected(b, "a value");
          }
        }
      }
      // After a value: close containers or move to the next element.
      while (true) {
        if (depth == 0) {
          return;
        }
        skipWs();
        int c = next();
        byte open = stack[depth - 1];
        if (c == ',') {
          skipWs();
          if (open == OBJECT) {
            memberName();
          }
          break;
        }
        if ((c == '}' && open == OBJECT) || (c == ']' && open == ARRAY)) {
          depth--;
          continue;
        }
        throw unexpected(c, open == OBJECT ? "',' or '}'" : "',' or ']'");
      }
    }
  }

  private void push(byte kind, int baseDepth, int depth) throws JsonSyntaxException {
    if (baseDepth + depth >= depthLimit) {
      throw tooDeep();
    }
    stack[depth] = kind;
  }

  /** A member name and its colon, inside a skipped object. */
  private void memberName() throws IOException, JsonSyntaxException {
    skipWs();
    expect('"');
    skipString();
    skipWs();
    expect(':');
  }

  /** A member name, decoded. */
  private String key() throws IOException, JsonSyntaxException {
    int c = peek();
    if (c != '"') {
      throw unexpected(c, "a member name");
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(32);
    capture = bytes;
    captureFrom = pos;
    try {
      pos++;
      skipString();
      bytes.write(buf, captureFrom, pos - captureFrom);
    } finally {
      capture = null;
    }
    return decodeString(bytes.toByteArray());
  }

  /** Validates a string's content after its opening quote, through the closing quote. */
  private void skipString() throws IOException, JsonSyntaxException {
    while (true) {
      int p = pos;
      int l = lim;
      byte[] a = buf;
      while (p < l) {
        byte b = a[p];
        if (b == '"' || b == '\\' || b < 0x20) { // also every byte from 0x80 (negative)
          break;
        }
        p++;
      }
      pos = p;
      if (p == l) {
        if (!fill()) {
          throw error("unexpected end of input in a string");
        }
        continue;
      }
      int b = a[p] & 0xff;
      if (b == '"') {
        pos++;
        return;
      }
      if (b == '\\') {
        pos++;
        escape();
      } else if (b < 0x20) {
        throw error("unescaped control character in a string");
      } else {
        utf8(b);
      }
    }
  }

  private void escape() throws IOException, JsonSyntaxException {
    int c = next();
    switch (c) {
      case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> {}
      case 'u' -> {
        for (int i = 0; i < 4; i++) {
          int h = next();
          if (!((h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F'))) {
            throw error("invalid \\u escape in a string");
          }
        }
      }
      default -> throw error("invalid escape in a string");
    }
  }

  /** One multi-byte UTF-8 sequence, strictly (no overlong forms, surrogates or beyond U+10FFFF). */
  private void utf8(int lead) throws IOException, JsonSyntaxException {
    pos++;
    int more;
    int min = 0x80;
    int max = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) {
      more = 1;
    } else if (lead >= 0xe0 && lead <= 0xef) {
      more = 2;
      if (lead == 0xe0) {
        min = 0xa0;
      } else if (lead == 0xed) {
        max = 0x9f;
      }
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      more = 3;
      if (lead == 0xf0) {
        min = 0x90;
      } else if (lead == 0xf4) {
        max = 0x8f;
      }
    } else {
      throw new JsonSyntaxException("not valid UTF-8", -1, -1);
    }
    for (int i = 0; i < more; i++) {
      int c = next();
      if (c < min || c > max) {
        throw new JsonSyntaxException("not valid UTF-8", -1, -1);
      }
      min = 0x80;
      max = 0xbf;
    }
  }

  private void number() throws IOException, JsonSyntaxException {
    int length = 0;
    int b = peek();
    if (b == '-') {
      pos++;
      length++;
      if (peek() == 'I') {
        literal("Infinity");
        return;
      }
    }
    b = peek();
    if (b == '0') {
      pos++;
      length++;
    } else if (b >= '1' && b <= '9') {
      length += digits();
    } else {
      throw unexpected(b, "a digit");
    }
    if (peek() == '.') {
      pos++;
      length++;
      int n = digits();
      if (n == 0) {
        throw unexpected(peek(), "a digit");
      }
      length += n;
    }
    b = peek();
    if (b == 'e' || b == 'E') {
      pos++;
      length++;
      b = peek();
      if (b == '+' || b == '-') {
        pos++;
        length++;
      }
      int n = digits();
      if (n == 0) {
        throw unexpected(peek(), "a digit");
      }
      length += n;
    }
    if (length > MAX_NUMBER_LENGTH) {
      throw JsonSyntaxException.limit("a number is longer than " + MAX_NUMBER_LENGTH + " digits");
    }
  }

  private int digits() throws IOException {
    int n = 0;
    while (true) {
      int b = peek();
      if (b < '0' || b > '9') {
        return n;
      }
      pos++;
      n++;
    }
  }

  private void literal(String word) throws IOException, JsonSyntaxException {
    for (int i = 0; i < word.length(); i++) {
      int c = next();
      if (c != word.charAt(i)) {
        throw error("invalid literal (expected " + word + ")");
      }
    }
  }

  private void skipBom() throws IOException {
    if (peek() == 0xef
        && lim - pos >= 3
        && (buf[pos + 1] & 0xff) == 0xbb
        && (buf[pos + 2] & 0xff) == 0xbf) {
      pos += 3;
      lineStart = consumed + pos;
    }
  }

  private void skipWs() throws IOException {
    while (true) {
      if (pos == lim && !fill()) {
        return;
      }
      byte b = buf[pos];
      if (b == ' ' || b == '\t' || b == '\r') {
        pos++;
      } else if (b == '\n') {
        pos++;
        line++;
        lineStart = consumed + pos;
      } else {
        return;
      }
    }
  }

  private void requireEnd() throws IOException, JsonSyntaxException {
    skipWs();
    if (peek() >= 0) {
      throw error("trailing content after the JSON document");
    }
  }

  private void expect(int c) throws IOException, JsonSyntaxException {
    int got = next();
    if (got != c) {
      throw unexpected(got, "'" + (char) c + "'");
    }
  }

  private int peek() throws IOException {
    if (pos == lim && !fill()) {
      return -1;
    }
    return buf[pos] & 0xff;
  }

  private int next() throws IOException {
    int b = peek();
    if (b >= 0) {
      pos++;
    }
    return b;
  }

  private boolean fill() throws IOException {
    ByteArrayOutputStream c = capture;
    if (c != null) {
      c.write(buf, captureFrom, lim - captureFrom);
      captureFrom = 0;
    }
    consumed += lim;
    pos = 0;
    lim = 0;
    int n = in.read(buf);
    if (n <= 0) {
      return false;
    }
    lim = n;
    return true;
  }

  private int column() {
    return (int) Math.min(Integer.MAX_VALUE, consumed + pos - lineStart + 1);
  }

  private JsonSyntaxException error(String message) {
    return new JsonSyntaxException(message, line, column());
  }

  private JsonSyntaxException tooDeep() {
    return new JsonSyntaxException(
        "nesting deeper than " + depthLimit + " levels", line, column(), true);
  }

  private JsonSyntaxException unexpected(int c, String expected) {
    if (c < 0) {
      return error("unexpected end of input (expected " + expected + ")");
    }
    String what = c >= 0x20 && c < 0x7f ? "'" + (char) c + "'" : String.format("byte 0x%02x", c);
    return error("unexpected " + what + " (expected " + expected + ")");
  }

  /** A validated string literal (with its quotes) as text. */
  static String decodeString(byte[] raw) {
    int end = raw.length - 1;
    int backslash = -1;
    for (int i = 1; i < end; i++) {
      if (raw[i] == '\\') {
        backslash = i;
        break;
      }
    }
    if (backslash < 0) {
      return new String(raw, 1, end - 1, StandardCharsets.UTF_8);
    }
    StringBuilder out = new StringBuilder(end);
    int from = 1;
    int i = backslash;
    while (i < end) {
      if (raw[i] != '\\') {
        i++;
        continue;
      }
      out.append(new String(raw, from, i - from, StandardCharsets.UTF_8));
      char e = (char) raw[i + 1];
      switch (e) {
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'u' -> {
          out.append(
              (char) Integer.parseInt(new String(raw, i + 2, 4, StandardCharsets.US_ASCII), 16));
          i += 4;
        }
        default -> out.append(e); // " \ /
      }
      i += 2;
      from = i;
    }
    out.append(new String(raw, from, end - from, StandardCharsets.UTF_8));
    return out.toString();
  }
}
