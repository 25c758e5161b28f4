package dev.kcshare.core.records;

import dev.kcshare.core.cost.SessionCost;
import dev.kcshare.core.json.internal.Values;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;

/**
 * The {@code cost} member of a verdict-cache row (kcshare's own, beside {@code era} and {@code
 * handshake}): {@code {"rssBytes", "pssBytes", "processes", "readyMillis", "cpuMillis"}}, each a
 * non-negative integer and each optional. Tolerant on read: a {@code cost} that is not an object is
 * dropped and the row kept; a figure that is not a non-negative integer literal (a fraction, an
 * exponent form, a string, a negative or overflowing number) is dropped on its own.
 */
final class StoredCost {
  static final String MEMBER = "cost";

  private StoredCost() {}

  /** The figure names in the order they are written. */
  static final List<String> FIGURES =
      List.of("rssBytes", "pssBytes", "processes", "readyMillis", "cpuMillis");

  /** The member value: the present figures, in {@link #FIGURES} order. */
  static Map<String, Object> toJson(SessionCost cost) {
    Map<String, Object> out = new LinkedHashMap<>();
    put(out, "rssBytes", cost.rssBytes());
    put(out, "pssBytes", cost.pssBytes());
    put(out, "processes", cost.processes());
    put(out, "readyMillis", cost.readyMillis());
    put(out, "cpuMillis", cost.cpuMillis());
    return out;
  }

  private static void put(Map<String, Object> out, String name, OptionalLong figure) {
    if (figure.isPresent()) {
      out.put(name, figure.getAsLong());
    }
  }

  /**
   * Reads the member, or null when it is not an object or holds no usable figure; every dropped
   * part is reported.
   */
  static @Nullable SessionCost fromJson(@Nullable Object value, String where, List<Dropped> notes) {
    if (!(value instanceof Map<?, ?> map)) {
      notes.add(
          new Dropped(
              where, "is " + Values.describe(value) + ", not an object; row kept without it"));
      return null;
    }
    OptionalLong[] figures = new OptionalLong[FIGURES.size()];
    for (int i = 0; i < figures.length; i++) {
      String name = FIGURES.get(i);
      figures[i] = OptionalLong.empty();
      if (!map.containsKey(name)) {
        continue;
      }
      Object figure = map.get(name);
      long v = Values.nonNegativeLong(figure);
      if (v < 0) {
        notes.add(
            new Dropped(
                where + "/" + name,
                Values.describe(figure) + " is not a non-negative integer; figure dropped"));
      } else {
        figures[i] = OptionalLong.of(v);
      }
    }
    SessionCost cost = new SessionCost(figures[0], figures[1], figures[2], figures[3], figures[4]);
    return cost.isEmpty() ? null : cost;
  }
}
