package dev.kcshare.host.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A minimal text edit of a Kiro Crew configuration: sets {@code mcp_gateway.stub_overrides} and
 * leaves every other byte where it was. The text is tokenized with positions (JSONC: comments and
 * trailing commas are skipped, never removed), the member's value text is replaced, or the member
 * (or the whole {@code mcp_gateway} section) is inserted in the indentation style of its
 * neighbours.
 *
 * <p>Pure: no I/O. The caller checks the result by re-parsing it ({@link ConfigEditor} does).
 */
final class ConfigText {
  static final String SECTION = "mcp_gateway";
  static final String MEMBER = "stub_overrides";

  /** Deep enough for any real configuration; deeper text is refused, never a stack overflow. */
  private static final int DEPTH_LIMIT = 500;

  private ConfigText() {}

  /** The text could not be tokenized as one JSONC object. */
  static final class EditException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    EditException(String message) {
      super(message);
    }
  }

  /**
   * The text with {@code mcp_gateway.stub_overrides} set to {@code overrides} (written in the map's
   * order). A null or empty text yields a new document holding only that member.
   *
   * @throws EditException when the text is not one JSONC object, or {@code mcp_gateway} is neither
   *     an object nor null
   */
  static String withStubOverrides(@Nullable String text, Map<String, Boolean> overrides) {
    if (text == null || text.isEmpty()) {
      return "{\n  \""
          + SECTION
          + "\": {\n    \""
          + MEMBER
          + "\": "
          + render(overrides, "    ", "  ", "\n", ": ", true)
          + "\n  }\n}\n";
    }
    Scanner sc = new Scanner(text);
    Node root = sc.document();
    if (!(root instanceof ObjectNode top)) {
      throw new EditException("the document is not an object");
    }
    Style style = Style.of(text, sc.objects);
    Member section = top.last(SECTION);
    if (section == null) {
      boolean multiline = multilineForInsert(text, top, null);
      String value = renderSectionAt(overrides, style, memberIndent(text, top, style), multiline);
      return insert(text, top, SECTION, value, style, multiline);
    }
    if (section.value instanceof Scalar s && text.startsWith("null", s.start)) {
      String indent = lineIndent(text, section.keyStart);
      boolean multiline = isMultiline(text, top);
      String value = renderSectionAt(overrides, style, indent, multiline);
      return replace(text, s.start, s.end, value);
    }
    if (!(section.value instanceof ObjectNode gateway)) {
      throw new EditException("/" + SECTION + " is not an object");
    }
    Member member = gateway.last(MEMBER);
    if (member == null) {
      boolean multiline = multilineForInsert(text, gateway, top);
      String indent = memberIndent(text, gateway, style);
      String value = render(overrides, indent, style.unit, style.newline, style.colon, multiline);
      return insert(text, gateway, MEMBER, value, style, multiline);
    }
    Node old = member.value;
    boolean multiline;
    if (old instanceof ObjectNode o && !o.members.isEmpty()) {
      multiline = isMultiline(text, o);
    } else {
      multiline = isMultiline(text, gateway);
    }
    String indent = lineIndent(text, member.keyStart);
    String value = render(overrides, indent, style.unit, style.newline, style.colon, multiline);
    return replace(text, old.start(), old.end(), value);
  }

  /**
   * The text with the boolean member {@code key} added to the object at {@code path} (member names
   * from the root). Objects on the path that are missing are added too, in the style of their
   * neighbours; nothing else changes.
   *
   * @throws EditException when the text is not one JSONC object, a member on the path is not an
   *     object, or {@code key} is already there
   */
  static String withMemberAdded(String text, List<String> path, String key, boolean value) {
    Scanner sc = new Scanner(text);
    if (!(sc.document() instanceof ObjectNode top)) {
      throw new EditException("the document is not an object");
    }
    Style style = Style.of(text, sc.objects);
    ObjectNode obj = top;
    ObjectNode parent = null;
    StringBuilder where = new StringBuilder();
    for (int i = 0; i < path.size(); i++) {
      Member m = obj.last(path.get(i));
      if (m == null) {
        boolean multiline = multilineForInsert(text, obj, parent);
        String indent = memberIndent(text, obj, style);
        String nested =
            nested(path.subList(i + 1, path.size()), key, value, indent, style, multiline);
        return insert(text, obj, path.get(i), nested, style, multiline);
      }
      where.append('/').append(path.get(i));
      if (!(m.value instanceof ObjectNode next)) {
        throw new EditException(where + " is not an object");
      }
      parent = obj;
      obj = next;
    }
    if (obj.last(key) != null) {
      throw new EditException(where + "/" + key + " is already set");
    }
    boolean multiline = multilineForInsert(text, obj, parent);
    return insert(text, obj, key, String.valueOf(value), style, multiline);
  }

  /** The member names that occur more than once in the object at {@code path} (in text order). */
  static List<String> repeatedMembers(String text, List<String> path) {
    Scanner sc = new Scanner(text);
    Node node = sc.document();
    for (String p : path) {
      if (!(node instanceof ObjectNode o) || o.last(p) == null) {
        return List.of();
      }
      node = o.last(p).value;
    }
    if (!(node instanceof ObjectNode obj)) {
      return List.of();
    }
    List<String> seen = new ArrayList<>();
    List<String> repeated = new ArrayList<>();
    for (Member m : obj.members) {
      if (seen.contains(m.key) && !repeated.contains(m.key)) {
        repeated.add(m.key);
      }
      seen.add(m.key);
    }
    return repeated;
  }

  /** {@code {"a": {"b": {"key": value}}}} for {@code keys} a, b; {@code indent} of the key line. */
  private static String nested(
      List<String> keys, String key, boolean value, String indent, Style style, boolean multiline) {
    String inner = multiline ? indent + style.unit : "";
    String member =
        keys.isEmpty()
            ? quote(key) + style.colon + value
            : quote(keys.get(0))
                + style.colon
                + nested(keys.subList(1, keys.size()), key, value, inner, style, multiline);
    if (!multiline) {
      return "{" + member + "}";
    }
    return "{" + style.newline + inner + member + style.newline + indent + "}";
  }

  // ---------------------------------------------------------------- rendering

  /** An object of booleans; {@code indent} is the indentation of the line holding its key. */
  static String render(
      Map<String, Boolean> map,
      String indent,
      String unit,
      String newline,
      String colon,
      boolean multiline) {
    if (map.isEmpty()) {
      return "{}";
    }
    StringBuilder b = new StringBuilder("{");
    boolean first = true;
    for (Map.Entry<String, Boolean> e : map.entrySet()) {
      if (!first) {
        b.append(',');
      }
      if (multiline) {
        b.append(newline).append(indent).append(unit);
      } else if (!first) {
        b.append(' ');
      }
      first = false;
      b.append(quote(e.getKey())).append(colon).append(e.getValue());
    }
    if (multiline) {
      b.append(newline).append(indent);
    }
    return b.append('}').toString();
  }

  /** {@code {"stub_overrides": ...}}; {@code indent} is that of the line holding its key. */
  private static String renderSectionAt(
      Map<String, Boolean> overrides, Style style, String indent, boolean multiline) {
    if (!multiline) {
      return "{"
          + quote(MEMBER)
          + style.colon
          + render(overrides, "", "", "", style.colon, false)
          + "}";
    }
    String inner = indent + style.unit;
    return "{"
        + style.newline
        + inner
        + quote(MEMBER)
        + style.colon
        + render(overrides, inner, style.unit, style.newline, style.colon, true)
        + style.newline
        + indent
        + "}";
  }

  /** JSON string literal; non-ASCII stays as it is (the file is UTF-8). */
  static String quote(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        case '\b' -> b.append("\\b");
        case '\f' -> b.append("\\f");
        default -> {
          if (c < 0x20 || c == 0x7f || c == '\u2028' || c == '\u2029') {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"').toString();
  }

  // ---------------------------------------------------------------- editing

  private static String replace(String text, int start, int end, String with) {
    return text.substring(0, start) + with + text.substring(end);
  }

  /** Appends a member after the object's last member (or into the empty object). */
  private static String insert(
      String text, ObjectNode obj, String key, String value, Style style, boolean multiline) {
    String member = quote(key) + style.colon + value;
    int p = lastContentBefore(text, obj.start + 1, obj.close);
    if (obj.members.isEmpty()) {
      if (multiline) {
        String indent = memberIndent(text, obj, style);
        String tail = isMultiline(text, obj) ? "" : style.newline + lineIndent(text, obj.start);
        return text.substring(0, p) + style.newline + indent + member + tail + text.substring(p);
      }
      return text.substring(0, p) + member + text.substring(p);
    }
    Member last = obj.members.get(obj.members.size() - 1);
    String lead = multiline ? style.newline + memberIndent(text, obj, style) : " ";
    String out = text.substring(0, p) + lead + member + text.substring(p);
    if (last.comma < 0) {
      int at = last.value.end();
      out = out.substring(0, at) + "," + out.substring(at);
    }
    return out;
  }

  /** Just past the last non-whitespace character (code or comment) in [from, to); else from. */
  private static int lastContentBefore(String text, int from, int to) {
    int p = to;
    while (p > from && isWhitespace(text.charAt(p - 1))) {
      p--;
    }
    return p;
  }

  /**
   * Whether a member inserted into {@code obj} goes on its own line: yes when the object spans
   * lines; for an empty one-line object, when its parent spans lines (the root always counts as
   * spanning lines, so {@code {}} becomes a pretty document).
   */
  private static boolean multilineForInsert(
      String text, ObjectNode obj, @Nullable ObjectNode parent) {
    if (isMultiline(text, obj)) {
      return true;
    }
    if (!obj.members.isEmpty()) {
      return false;
    }
    return obj.depth == 0 || parent == null || isMultiline(text, parent);
  }

  /** The indentation of the object's members: that of its first member, else one unit deeper. */
  private static String memberIndent(String text, ObjectNode obj, Style style) {
    for (Member m : obj.members) {
      if (startsLine(text, m.keyStart)) {
        return lineIndent(text, m.keyStart);
      }
    }
    return lineIndent(text, obj.start) + style.unit;
  }

  private static boolean isMultiline(String text, ObjectNode obj) {
    for (int i = obj.start; i < obj.end; i++) {
      char c = text.charAt(i);
      if (c == '\n' || c == '\r') {
        return true;
      }
    }
    return false;
  }

  /** The leading whitespace of the line holding {@code pos}. */
  static String lineIndent(String text, int pos) {
    int lineStart = pos;
    while (lineStart > 0
        && text.charAt(lineStart - 1) != '\n'
        && text.charAt(lineStart - 1) != '\r') {
      lineStart--;
    }
    int i = lineStart;
    while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
      i++;
    }
    return text.substring(lineStart, i);
  }

  private static boolean startsLine(String text, int pos) {
    int i = pos;
    while (i > 0 && (text.charAt(i - 1) == ' ' || text.charAt(i - 1) == '\t')) {
      i--;
    }
    return i == 0
        || text.charAt(i - 1) == '\n'
        || text.charAt(i - 1) == '\r'
        || text.charAt(i - 1) == '\uFEFF';
  }

  private static boolean isWhitespace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
  }

  /** The document's formatting conventions, read from its own text. */
  private record Style(String unit, String newline, String colon) {
    static Style of(String text, List<ObjectNode> objects) {
      String newline = text.contains("\r\n") ? "\r\n" : "\n";
      String unit = null;
      String colon = null;
      for (ObjectNode o : objects) {
        if (colon == null && !o.members.isEmpty()) {
          Member m = o.members.get(0);
          String before = text.substring(m.keyEnd, m.colon);
          String after = text.substring(m.colon + 1, m.value.start());
          if (isInline(before) && isInline(after)) {
            colon = before + ":" + after;
          }
        }
        if (unit == null && !o.members.isEmpty() && startsLine(text, o.members.get(0).keyStart)) {
          String outer = lineIndent(text, o.start);
          String inner = lineIndent(text, o.members.get(0).keyStart);
          if (inner.length() > outer.length() && inner.startsWith(outer)) {
            unit = inner.substring(outer.length());
          }
        }
      }
      return new Style(unit == null ? "  " : unit, newline, colon == null ? ": " : colon);
    }

    private static boolean isInline(String s) {
      for (int i = 0; i < s.length(); i++) {
        if (s.charAt(i) != ' ' && s.charAt(i) != '\t') {
          return false;
        }
      }
      return true;
    }
  }

  // ---------------------------------------------------------------- tokenizing

  /** A parsed value with its span [start, end) in the text. */
  private sealed interface Node permits ObjectNode, Scalar {
    int start();

    int end();
  }

  /** A string, number, literal or array: only its span matters here. */
  private record Scalar(int start, int end) implements Node {}

  /** One object member; {@code comma} is the position of the comma after it, or -1. */
  private static final class Member {
    final String key;
    final int keyStart;
    final int keyEnd;
    final int colon;
    final Node value;
    int comma = -1;

    Member(String key, int keyStart, int keyEnd, int colon, Node value) {
      this.key = key;
      this.keyStart = keyStart;
      this.keyEnd = keyEnd;
      this.colon = colon;
      this.value = value;
    }
  }

  private static final class ObjectNode implements Node {
    final int start;
    final int depth;
    final List<Member> members = new ArrayList<>();
    int close;
    int end;

    ObjectNode(int start, int depth) {
      this.start = start;
      this.depth = depth;
    }

    @Override
    public int start() {
      return start;
    }

    @Override
    public int end() {
      return end;
    }

    /** The last member of that name: a repeated member keeps its last value when read. */
    @Nullable Member last(String key) {
      Member found = null;
      for (Member m : members) {
        if (m.key.equals(key)) {
          found = m;
        }
      }
      return found;
    }
  }

  /** A recursive-descent JSONC tokenizer that keeps positions. */
  private static final class Scanner {
    final String s;
    final List<ObjectNode> objects = new ArrayList<>();
    int i;

    Scanner(String s) {
      this.s = s;
    }

    Node document() {
      if (s.startsWith("\uFEFF")) {
        i = 1;
      }
      skip();
      Node root = value(0);
      skip();
      if (i != s.length()) {
        throw error("trailing content");
      }
      return root;
    }

    private Node value(int depth) {
      if (depth > DEPTH_LIMIT) {
        throw error("nesting too deep");
      }
      if (i >= s.length()) {
        throw error("unexpected end of text");
      }
      char c = s.charAt(i);
      if (c == '{') {
        return object(depth);
      }
      int start = i;
      if (c == '[') {
        array(depth);
      } else if (c == '"') {
        string();
      } else {
        while (i < s.length() && isLiteralChar(s.charAt(i))) {
          i++;
        }
        if (i == start) {
          throw error("unexpected character");
        }
      }
      return new Scalar(start, i);
    }

    private ObjectNode object(int depth) {
      ObjectNode o = new ObjectNode(i, depth);
      objects.add(o);
      i++; // {
      skip();
      while (true) {
        if (i >= s.length()) {
          throw error("unterminated object");
        }
        if (s.charAt(i) == '}') {
          break;
        }
        if (s.charAt(i) != '"') {
          throw error("expected a member name");
        }
        int keyStart = i;
        String key = string();
        int keyEnd = i;
        skip();
        if (i >= s.length() || s.charAt(i) != ':') {
          throw error("expected ':'");
        }
        int colon = i++;
        skip();
        Member m = new Member(key, keyStart, keyEnd, colon, value(depth + 1));
        o.members.add(m);
        skip();
        if (i < s.length() && s.charAt(i) == ',') {
          m.comma = i++;
          skip();
        } else if (i < s.length() && s.charAt(i) != '}') {
          throw error("expected ',' or '}'");
        }
      }
      o.close = i;
      o.end = ++i;
      return o;
    }

    private void array(int depth) {
      i++; // [
      skip();
      while (true) {
        if (i >= s.length()) {
          throw error("unterminated array");
        }
        if (s.charAt(i) == ']') {
          i++;
          return;
        }
        value(depth + 1);
        skip();
        if (i < s.length() && s.charAt(i) == ',') {
          i++;
          skip();
        } else if (i < s.length() && s.charAt(i) != ']') {
          throw error("expected ',' or ']'");
        }
      }
    }

    /** Reads a string literal at {@code i} and returns its decoded value. */
    private String string() {
      StringBuilder b = new StringBuilder();
      i++; // "
      while (true) {
        if (i >= s.length()) {
          throw error("unterminated string");
        }
        char c = s.charAt(i++);
        if (c == '"') {
          return b.toString();
        }
        if (c != '\\') {
          b.append(c);
          continue;
        }
        if (i >= s.length()) {
          throw error("unterminated string");
        }
        char e = s.charAt(i++);
        switch (e) {
          case '"', '\\', '/' -> b.append(e);
          case 'b' -> b.append('\b');
          case 'f' -> b.append('\f');
          case 'n' -> b.append('\n');
          case 'r' -> b.append('\r');
          case 't' -> b.append('\t');
          case 'u' -> {
            if (i + 4 > s.length()) {
              throw error("bad \\u escape");
            }
            try {
              b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
            } catch (NumberFormatException ex) {
              throw error("bad \\u escape");
            }
            i += 4;
          }
          default -> throw error("bad escape");
        }
      }
    }

    /** Skips whitespace and comments. */
    private void skip() {
      while (i < s.length()) {
        char c = s.charAt(i);
        if (isWhitespace(c)) {
          i++;
        } else if (c == '/' && i + 1 < s.length() && s.charAt(i + 1) == '/') {
          while (i < s.length() && s.charAt(i) != '\n' && s.charAt(i) != '\r') {
            i++;
          }
        } else if (c == '/' && i + 1 < s.length() && s.charAt(i + 1) == '*') {
          int close = s.indexOf("*/", i + 2);
          if (close < 0) {
            throw error("unterminated comment");
          }
          i = close + 2;
        } else {
          return;
        }
      }
    }

    private static boolean isLiteralChar(char c) {
      return (c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || c == '+'
          || c == '.';
    }

    private EditException error(String what) {
      return new EditException(what + " at offset " + i);
    }
  }
}
