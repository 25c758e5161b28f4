package dev.kcshare.core.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * A small strict JSON reader for tests (the core's test classpath has no JSON library). Produces
 * the plain values the core works on: {@link LinkedHashMap} (member order kept), {@link ArrayList},
 * {@link String}, {@link Long} (integers that fit), {@link Double} (everything else), {@link
 * Boolean} and {@code null}. Duplicate member names are rejected, so a case file cannot silently
 * shadow a field.
 */
public final class TestJson {
  private final String text;
  private int pos;

  private TestJson(String text) {
    this.text = text;
  }

  /** Parses a complete JSON text. */
  public static @Nullable Object parse(String text) {
    TestJson p = new TestJson(text);
    p.skipSpace();
    Object value = p.value(0);
    p.skipSpace();
    if (p.pos != text.length()) {
      throw p.error("trailing content");
    }
    return value;
  }

  /** Parses a classpath resource (UTF-8). */
  public static @Nullable Object parseResource(String resource) {
    try (InputStream in = TestJson.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalArgumentException("no such resource: " + resource);
      }
      return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The {@code .json} resources directly inside a classpath directory, sorted by file name. */
  public static List<String> listResources(String directory) {
    URL url = TestJson.class.getClassLoader().getResource(directory);
    if (url == null) {
      throw new IllegalArgumentException("no such resource directory: " + directory);
    }
    try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".json"))
          .sorted()
          .map(n -> directory + "/" + n)
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private @Nullable Object value(int depth) {
    if (depth > 512) {
      throw error("nesting too deep");
    }
    if (pos >= text.length()) {
      throw error("unexpected end of input");
    }
    char c = text.charAt(pos);
    switch (c) {
      case '{':
        return object(depth);
      case '[':
        return array(depth);
      case '"':
        return string();
      case 't':
        literal("true");
        return Boolean.TRUE;
      case 'f':
        literal("false");
        return Boolean.FALSE;
      case 'n':
        literal("null");
        return null;
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          return number();
        }
        throw error("unexpected character '" + c + "'");
    }
  }

  private Map<String, @Nullable Object> object(int depth) {
    Map<String, @Nullable Object> out = new LinkedHashMap<>();
    pos++; // {
    skipSpace();
    if (peek() == '}') {
      pos++;
      return out;
    }
    while (true) {
      skipSpace();
      if (peek() != '"') {
        throw error("expected a member name");
      }
      String key = string();
      skipSpace();
      expect(':');
      skipSpace();
      if (out.containsKey(key)) {
        throw error("duplicate member \"" + key + "\"");
      }
      out.put(key, value(depth + 1));
      skipSpace();
      char c = next();
      if (c == '}') {
        return out;
      }
      if (c != ',') {
        throw error("expected ',' or '}'");
      }
    }
  }

  private List<@Nullable Object> array(int depth) {
    List<@Nullable Object> out = new ArrayList<>();
    pos++; // [
    skipSpace();
    if (peek() == ']') {
      pos++;
      return out;
    }
    while (true) {
      skipSpace();
      out.add(value(depth + 1));
      skipSpace();
      char c = next();
      if (c == ']') {
        return out;
      }
      if (c != ',') {
        throw error("expected ',' or ']'");
      }
    }
  }

  private String string() {
    expect('"');
    StringBuilder sb = new StringBuilder();
    while (true) {
      char c = next();
      if (c == '"') {
        return sb.toString();
      }
      if (c < 0x20) {
        throw error("control character in string");
      }
      if (c != '\\') {
        sb.append(c);
        continue;
      }
      char e = next();
      switch (e) {
        case '"', '\\', '/' -> sb.append(e);
        case 'b' -> sb.append('\b');
        case 'f' -> sb.append('\f');
        case 'n' -> sb.append('\n');
        case 'r' -> sb.append('\r');
        case 't' -> sb.append('\t');
        case 'u' -> {
          if (pos + 4 > text.length()) {
            throw error("short \\u escape");
          }
          try {
            sb.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
          } catch (NumberFormatException ex) {
            throw error("bad \\u escape");
          }
          pos += 4;
        }
        default -> throw error("bad escape \\" + e);
      }
    }
  }

  private Object number() {
    int start = pos;
    if (peek() == '-') {
      pos++;
    }
    digits();
    boolean integral = true;
    if (pos < text.length() && text.charAt(pos) == '.') {
      integral = false;
      pos++;
      digits();
    }
    if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
      integral = false;
      pos++;
      if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) {
        pos++;
      }
      digits();
    }
    String s = text.substring(start, pos);
    if (integral) {
      try {
        return Long.parseLong(s);
      } catch (NumberFormatException tooBig) {
        return Double.parseDouble(s);
      }
    }
    return Double.parseDouble(s);
  }

  private void digits() {
    int start = pos;
    while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
      pos++;
    }
    if (pos == start) {
      throw error("expected a digit");
    }
  }

  private void literal(String word) {
    if (!text.startsWith(word, pos)) {
      throw error("expected " + word);
    }
    pos += word.length();
  }

  private void expect(char c) {
    if (next() != c) {
      throw error("expected '" + c + "'");
    }
  }

  private char peek() {
    if (pos >= text.length()) {
      throw error("unexpected end of input");
    }
    return text.charAt(pos);
  }

  private char next() {
    char c = peek();
    pos++;
    return c;
  }

  private void skipSpace() {
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      pos++;
    }
  }

  private IllegalArgumentException error(String what) {
    int line = 1;
    int col = 1;
    for (int i = 0; i < Math.min(pos, text.length()); i++) {
      if (text.charAt(i) == '\n') {
        line++;
        col = 1;
      } else {
        col++;
      }
    }
    return new IllegalArgumentException("JSON " + what + " at line " + line + ", column " + col);
  }
}
