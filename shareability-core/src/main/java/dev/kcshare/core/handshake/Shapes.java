package dev.kcshare.core.handshake;

import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.core.json.internal.CodePoints;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The shape projection of docs/design.md#shape-projection: what a pooled backend must replay
 * identically (which keys exist, which boolean flags are set), with every free-form value collapsed
 * to a presence marker, because a build id or a token is not part of that contract.
 *
 * <p>Every walk uses an explicit work stack, so values nested to any depth are handled without
 * exhausting the thread stack. Inputs are never mutated.
 */
final class Shapes {
  /** The presence marker that replaces strings, numbers, nulls and arrays. */
  public static final String MARKER = "*";

  private static final String MARKER_TEXT = "\"*\"";

  private static final Comparator<Map.Entry<?, ?>> BY_KEY =
      (x, y) -> CodePoints.compare(keyText(x.getKey()), keyText(y.getKey()));

  private Shapes() {}

  /**
   * Projects a JSON value to its shape: an object keeps its member names with projected values,
   * booleans stay, anything else becomes {@link #MARKER}; only the top-level {@code null} (nothing
   * observed) stays {@code null}. Returned objects are fresh, insertion-ordered like the input.
   */
  public static @Nullable Object shape(@Nullable Object value) {
    if (value == null || value instanceof Boolean) {
      return value;
    }
    if (!(value instanceof Map<?, ?> root)) {
      return MARKER;
    }
    Map<String, Object> result = new LinkedHashMap<>();
    // Each pending pair is a source object and the (already attached) target that receives its
    // projected members; the order of processing does not matter because children are attached
    // to their parent when first met.
    Deque<Map<?, ?>> sources = new ArrayDeque<>();
    Deque<Map<String, Object>> targets = new ArrayDeque<>();
    sources.push(root);
    targets.push(result);
    while (!sources.isEmpty()) {
      Map<?, ?> source = sources.pop();
      Map<String, Object> target = targets.pop();
      for (Map.Entry<?, ?> e : source.entrySet()) {
        Object v = e.getValue();
        if (v instanceof Map<?, ?> child) {
          Map<String, Object> projected = new LinkedHashMap<>();
          target.put(keyText(e.getKey()), projected);
          sources.push(child);
          targets.push(projected);
        } else {
          target.put(keyText(e.getKey()), v instanceof Boolean ? v : MARKER);
        }
      }
    }
    return result;
  }

  /**
   * The canonical text of a shape (or of any JSON value): compact JSON, members sorted by code
   * point. Two shapes are equal iff their canonical texts are equal, which also gives collections
   * of shapes a total order.
   */
  public static String canonical(@Nullable Object shape) {
    return JsonWriter.canonical(shape);
  }

  /**
   * Whether two values have equal shapes, which is the same as equal canonical shape texts, decided
   * by walking both values side by side without building any text (the comparison's fast path).
   */
  public static boolean sameShape(@Nullable Object x, @Nullable Object y) {
    if (!(x instanceof Map<?, ?> mapX) || !(y instanceof Map<?, ?> mapY)) {
      return !(x instanceof Map) && !(y instanceof Map) && topScalar(x).equals(topScalar(y));
    }
    // Pairs of objects still to compare, pushed x then y; allocated only for nested objects.
    Deque<Map<?, ?>> pending = null;
    Map<?, ?> curX = mapX;
    Map<?, ?> curY = mapY;
    while (true) {
      if (curX.size() != curY.size()) {
        return false;
      }
      for (Map.Entry<?, ?> e : curX.entrySet()) {
        Object valueX = e.getValue();
        Object valueY = curY.get(e.getKey());
        if (valueY == null && !curY.containsKey(e.getKey())) {
          return false;
        }
        if (valueX instanceof Map<?, ?> childX) {
          if (!(valueY instanceof Map<?, ?> childY)) {
            return false;
          }
          if (pending == null) {
            pending = new ArrayDeque<>();
          }
          pending.push(childX);
          pending.push(childY);
        } else if (valueX instanceof Boolean) {
          if (!valueX.equals(valueY)) {
            return false;
          }
        } else if (valueY instanceof Map || valueY instanceof Boolean) {
          return false;
        }
      }
      if (pending == null || pending.isEmpty()) {
        return true;
      }
      curY = pending.pop();
      curX = pending.pop();
    }
  }

  /** The projection of a top-level non-object, as a non-null token. */
  private static Object topScalar(@Nullable Object value) {
    if (value == null) {
      return "null";
    }
    return value instanceof Boolean ? value : MARKER_TEXT;
  }

  /**
   * {@code canonical(shape(value))} in one pass, without building the projected tree; the form the
   * comparison uses.
   */
  public static String canonicalShape(@Nullable Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof Boolean b) {
      return b ? "true" : "false";
    }
    if (!(value instanceof Map<?, ?> root)) {
      return MARKER_TEXT;
    }
    StringBuilder out = new StringBuilder(128);
    Frame top = null;
    Map<?, ?> open = root;
    while (true) {
      if (open != null) {
        Map.Entry<?, ?>[] entries = sortedEntries(open);
        open = null;
        if (entries.length == 0) {
          out.append("{}");
        } else {
          out.append('{');
          top = new Frame(entries, top);
        }
      }
      if (top == null) {
        return out.toString();
      }
      if (top.next < top.entries.length) {
        if (top.next > 0) {
          out.append(',');
        }
        Map.Entry<?, ?> e = top.entries[top.next++];
        appendKey(out, keyText(e.getKey()));
        out.append(':');
        Object v = e.getValue();
        if (v instanceof Map<?, ?> child) {
          open = child;
        } else if (v instanceof Boolean b) {
          out.append(b ? "true" : "false");
        } else {
          out.append(MARKER_TEXT);
        }
      } else {
        out.append('}');
        top = top.parent;
      }
    }
  }

  private static Map.Entry<?, ?>[] sortedEntries(Map<?, ?> map) {
    // Presized, so toArray fills it instead of allocating one reflectively.
    Map.Entry<?, ?>[] entries = map.entrySet().toArray(new Map.Entry<?, ?>[map.size()]);
    if (entries.length > 1) {
      Arrays.sort(entries, BY_KEY);
    }
    return entries;
  }

  private static String keyText(@Nullable Object key) {
    return key instanceof String s ? s : String.valueOf(key);
  }

  /** Plain printable ASCII keys (the usual case) need no escaping; others go through JsonWriter. */
  private static void appendKey(StringBuilder out, String key) {
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
        out.append(JsonWriter.canonical(key));
        return;
      }
    }
    out.append('"').append(key).append('"');
  }

  /** One open object of {@link #canonicalShape}: its sorted members and the next to write. */
  private static final class Frame {
    final Map.Entry<?, ?>[] entries;
    final @Nullable Frame parent;
    int next;

    Frame(Map.Entry<?, ?>[] entries, @Nullable Frame parent) {
      this.entries = entries;
      this.parent = parent;
    }
  }
}
