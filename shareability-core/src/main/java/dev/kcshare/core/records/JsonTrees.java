package dev.kcshare.core.records;

import dev.kcshare.core.json.internal.CodePoints;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Deep copies of server-provided JSON values, without recursion (values may nest deeply). */
final class JsonTrees {
  private JsonTrees() {}

  /**
   * An unmodifiable deep copy in which every object's members are in code-point order of their
   * names (docs/design.md#writing-files). Scalars are shared; an object's non-string member names
   * become their string form. Uses an explicit work stack, so depth is bounded only by the heap.
   */
  static @Nullable Object sortedCopy(@Nullable Object value) {
    if (!(value instanceof Map<?, ?>) && !(value instanceof List<?>)) {
      return value;
    }
    Deque<Pending> work = new ArrayDeque<>();
    Object root = open(value, work);
    while (!work.isEmpty()) {
      Pending pending = work.pop();
      if (pending.source instanceof Map<?, ?> map) {
        List<Map.Entry<?, ?>> entries = new ArrayList<>(map.entrySet());
        entries.sort(
            (a, b) -> CodePoints.compare(String.valueOf(a.getKey()), String.valueOf(b.getKey())));
        @SuppressWarnings("unchecked")
        Map<String, @Nullable Object> target = (Map<String, @Nullable Object>) pending.target;
        for (Map.Entry<?, ?> e : entries) {
          target.put(String.valueOf(e.getKey()), open(e.getValue(), work));
        }
      } else {
        @SuppressWarnings("unchecked")
        List<@Nullable Object> target = (List<@Nullable Object>) pending.target;
        for (Object element : (List<?>) pending.source) {
          target.add(open(element, work));
        }
      }
    }
    return root;
  }

  /** A sorted copy of an object, typed as one. */
  @SuppressWarnings("unchecked")
  static Map<String, ?> sortedCopy(Map<String, ?> object) {
    return (Map<String, ?>) java.util.Objects.requireNonNull(sortedCopy((Object) object));
  }

  /**
   * The unmodifiable view that will hold a copy of {@code value}; containers are queued to be
   * filled, scalars are returned as they are.
   */
  private static @Nullable Object open(@Nullable Object value, Deque<Pending> work) {
    if (value instanceof Map<?, ?> map) {
      Map<String, @Nullable Object> target = new LinkedHashMap<>(Math.max(4, map.size() * 2));
      work.push(new Pending(map, target));
      return Collections.unmodifiableMap(target);
    }
    if (value instanceof List<?> list) {
      List<@Nullable Object> target = new ArrayList<>(list.size());
      work.push(new Pending(list, target));
      return Collections.unmodifiableList(target);
    }
    return value;
  }

  private record Pending(Object source, Object target) {}
}
