package dev.kcshare.core.json;

import dev.kcshare.core.json.internal.CodePoints;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Serialises plain JSON values ({@code Map<String, ?>}, {@code List<?>}, {@code String}, {@code
 * Number}, {@code Boolean}, {@code null}) to text, without recursion, so values nested to any depth
 * are written without exhausting the thread stack.
 *
 * <p>Two fixed styles:
 *
 * <ul>
 *   <li>{@link #canonical(Object)}: compact, object members sorted by code point, ASCII-only. Two
 *       values are structurally equal iff their canonical texts are equal; used for shapes.
 *   <li>{@link #pretty(Object)}: the record-file style, which matches Python's {@code
 *       json.dumps(value, indent=2, sort_keys=True)} plus a trailing newline, so a kcshare file
 *       diffs cleanly against one written by the Kiro Crew gateway. Maps are written in their own
 *       iteration order (callers sort where the format says so).
 * </ul>
 *
 * <p>Non-ASCII characters are escaped as {@code \}{@code uXXXX} with lowercase hex (surrogate pairs
 * above U+FFFF); control characters use Python's short escapes where it has one ({@code \n}, {@code
 * \r}, {@code \t}, {@code \b}, {@code \f}) and {@code \}{@code u00XX} otherwise, so NUL is written
 * {@code \}{@code u0000}. Non-finite numbers are written as {@code 0.0}: the record formats never
 * contain NaN or infinities.
 */
public final class JsonWriter {
  private final int indent;

  /**
   * Object members in code-point order of their keys. A constant, linked once when the class is
   * initialised: two pre-flight threads writing canonical text at the same moment would otherwise
   * each link the call site, and one of them spin a lambda class the start-up archive already
   * holds.
   */
  private static final Comparator<Map.Entry<?, ?>> BY_KEY =
      (a, b) -> CodePoints.compare(String.valueOf(a.getKey()), String.valueOf(b.getKey()));

  private final boolean sortKeys;

  private JsonWriter(int indent, boolean sortKeys) {
    this.indent = indent;
    this.sortKeys = sortKeys;
  }

  /**
   * Compact text with object members sorted by code point.
   *
   * @param value a plain JSON value (map, list, string, number, boolean or null)
   * @return the JSON text, with no whitespace between tokens
   */
  public static String canonical(@Nullable Object value) {
    return new JsonWriter(0, true).write(value);
  }

  /**
   * Compact text with object members in map order.
   *
   * @param value a plain JSON value (map, list, string, number, boolean or null)
   * @return the JSON text, with no whitespace between tokens
   */
  public static String compact(@Nullable Object value) {
    return new JsonWriter(0, false).write(value);
  }

  /**
   * Two-space indented text in map order, ending with a newline (the record-file style).
   *
   * @param value a plain JSON value (map, list, string, number, boolean or null)
   * @return the JSON text
   */
  public static String pretty(@Nullable Object value) {
    return new JsonWriter(2, false).write(value) + "\n";
  }

  private String write(@Nullable Object root) {
    StringBuilder out = new StringBuilder();
    // Each frame is an open container: an iterator over its remaining entries and whether
    // anything was written yet. Scalars are written directly.
    Deque<Frame> stack = new ArrayDeque<>();
    @Nullable Object next = root;
    boolean haveValue = true;
    while (true) {
      if (haveValue) {
        haveValue = false;
        if (next instanceof Map<?, ?> map) {
          if (map.isEmpty()) {
            out.append("{}");
          } else {
            out.append('{');
            stack.push(new Frame(entries(map), true));
          }
        } else if (next instanceof List<?> list) {
          if (list.isEmpty()) {
            out.append("[]");
          } else {
            out.append('[');
            stack.push(new Frame(list.iterator(), false));
          }
        } else if (next instanceof RawJson raw) {
          raw(out, raw.text(), stack.size());
        } else {
          scalar(out, next);
        }
      }
      Frame top = stack.peek();
      if (top == null) {
        return out.toString();
      }
      if (top.items.hasNext()) {
        if (top.started) {
          out.append(',');
        }
        top.started = true;
        newline(out, stack.size());
        Object item = top.items.next();
        if (top.isObject) {
          Map.Entry<?, ?> e = (Map.Entry<?, ?>) item;
          string(out, String.valueOf(e.getKey()));
          out.append(indent > 0 ? ": " : ":");
          next = e.getValue();
        } else {
          next = item;
        }
        haveValue = true;
      } else {
        stack.pop();
        newline(out, stack.size());
        out.append(top.isObject ? '}' : ']');
      }
    }
  }

  private Iterator<?> entries(Map<?, ?> map) {
    if (!sortKeys) {
      return map.entrySet().iterator();
    }
    List<Map.Entry<?, ?>> list = new ArrayList<>(map.entrySet());
    list.sort(BY_KEY);
    return list.iterator();
  }

  /**
   * Writes compact text of one value (as {@link #compact} wrote it) in this writer's style, its
   * containers starting at {@code depth}: verbatim when compact, re-indented when pretty.
   */
  private void raw(StringBuilder out, String text, int depth) {
    if (indent == 0) {
      out.append(text);
      return;
    }
    boolean inString = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (inString) {
        out.append(c);
        if (c == '\\') {
          out.append(text.charAt(++i));
        } else if (c == '"') {
          inString = false;
        }
        continue;
      }
      switch (c) {
        case '"' -> {
          inString = true;
          out.append(c);
        }
        case '{', '[' -> {
          char next = i + 1 < text.length() ? text.charAt(i + 1) : 0;
          out.append(c);
          if (next == '}' || next == ']') {
            out.append(next);
            i++;
          } else {
            depth++;
            newline(out, depth);
          }
        }
        case '}', ']' -> {
          depth--;
          newline(out, depth);
          out.append(c);
        }
        case ',' -> {
          out.append(',');
          newline(out, depth);
        }
        case ':' -> out.append(": ");
        default -> out.append(c);
      }
    }
  }

  private void newline(StringBuilder out, int depth) {
    if (indent > 0) {
      out.append('\n');
      for (int i = 0; i < depth * indent; i++) {
        out.append(' ');
      }
    }
  }

  private static void scalar(StringBuilder out, @Nullable Object value) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof Boolean b) {
      out.append(b.booleanValue() ? "true" : "false");
    } else if (value instanceof String s) {
      string(out, s);
    } else if (value instanceof Number n) {
      number(out, n);
    } else {
      string(out, value.toString());
    }
  }

  private static void number(StringBuilder out, Number n) {
    if (n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte) {
      out.append(n.longValue());
    } else if (n instanceof BigInteger big) {
      out.append(big);
    } else if (n instanceof BigDecimal dec) {
      out.append(dec.toString());
    } else {
      out.append(pythonFloat(n.doubleValue()));
    }
  }

  /** Formats a double the way Python's {@code repr(float)} does ({@code 1.0}, {@code 1e+22}). */
  static String pythonFloat(double d) {
    if (!Double.isFinite(d)) {
      return "0.0";
    }
    if (d == 0) {
      return (1 / d < 0) ? "-0.0" : "0.0";
    }
    BigDecimal exact = shortestDigits(d);
    int exponent = exact.precision() - exact.scale() - 1; // decimal exponent of the leading digit
    // Python switches to exponent notation below 1e-4 and from 1e16 on.
    if (exponent >= -4 && exponent < 16) {
      String plain = exact.toPlainString();
      return plain.indexOf('.') >= 0 ? plain : plain + ".0";
    }
    String digits = exact.unscaledValue().abs().toString();
    StringBuilder s = new StringBuilder();
    if (exact.signum() < 0) {
      s.append('-');
    }
    s.append(digits.charAt(0));
    if (digits.length() > 1) {
      s.append('.').append(digits, 1, digits.length());
    }
    s.append('e').append(exponent < 0 ? '-' : '+');
    int abs = Math.abs(exponent);
    if (abs < 10) {
      s.append('0');
    }
    s.append(abs);
    return s.toString();
  }

  /**
   * The shortest decimal that reads back as {@code d}, and of those the one closest to {@code d}:
   * the digits of Python's {@code repr}. Java 17's {@link Double#toString(double)} usually finds
   * them but sometimes emits a digit or two more (JDK-4511638, fixed in Java 19), so its answer is
   * only the starting point.
   */
  static BigDecimal shortestDigits(double d) {
    BigDecimal jdk = new BigDecimal(Double.toString(d)).stripTrailingZeros();
    if (jdk.precision() <= 15 && Math.abs(d) >= Double.MIN_NORMAL) {
      // Decimals of at most 15 significant digits lie at least 1e-15 * |d| apart, more than the
      // width of a normal double's rounding interval (2^-52 * |d|): at most one of them reads back
      // as d, so an answer this short is already the shortest and the closest. Timestamps such as
      // 1796019386.626 take this path and skip the BigDecimal search below (the slow part of
      // writing a few hundred of them in a cold JVM).
      return jdk;
    }
    return searchShortest(d, jdk);
  }

  /** The search itself, from Java's answer {@code jdk} (package-private for a test). */
  static BigDecimal searchShortest(double d, BigDecimal jdk) {
    BigDecimal value = new BigDecimal(d);
    int digits = jdk.precision();
    // If any decimal of k digits reads back as d, the nearest k-digit decimal below or above d
    // does too (the values reading back as d form an interval around it).
    while (digits > 1 && nearest(value, digits - 1, d) != null) {
      digits--;
    }
    BigDecimal best = nearest(value, digits, d);
    return best == null ? jdk : best.stripTrailingZeros();
  }

  /** Of the k-digit decimals just below and just above {@code value}, the closest reading as d. */
  private static @Nullable BigDecimal nearest(BigDecimal value, int digits, double d) {
    BigDecimal down = value.round(new MathContext(digits, RoundingMode.FLOOR));
    BigDecimal up = value.round(new MathContext(digits, RoundingMode.CEILING));
    boolean downOk = Double.parseDouble(down.toString()) == d;
    boolean upOk = Double.parseDouble(up.toString()) == d;
    if (downOk && upOk) {
      int cmp = value.subtract(down).compareTo(up.subtract(value));
      if (cmp != 0) {
        return cmp < 0 ? down : up;
      }
      return value.round(new MathContext(digits, RoundingMode.HALF_EVEN));
    }
    return downOk ? down : upOk ? up : null;
  }

  private static void string(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          if (c < 0x20 || c > 0x7e) {
            out.append("\\u");
            String hex = Integer.toHexString(c);
            for (int pad = hex.length(); pad < 4; pad++) {
              out.append('0');
            }
            out.append(hex);
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  private static final class Frame {
    final Iterator<?> items;
    final boolean isObject;
    boolean started;

    Frame(Iterator<?> items, boolean isObject) {
      this.items = items;
      this.isObject = isObject;
    }
  }
}
