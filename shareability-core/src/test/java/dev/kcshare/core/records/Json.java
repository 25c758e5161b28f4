package dev.kcshare.core.records;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds plain JSON values (insertion-ordered maps, lists) the way a parser would produce them. */
public final class Json {
  private Json() {}

  public static Map<String, Object> obj(Object... keyValues) {
    if (keyValues.length % 2 != 0) {
      throw new IllegalArgumentException("odd number of arguments");
    }
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      map.put((String) keyValues[i], keyValues[i + 1]);
    }
    return map;
  }

  public static List<Object> arr(Object... items) {
    return new ArrayList<>(Arrays.asList(items));
  }

  /** A copy of {@code base} with one member set (added at the end if new). */
  public static Map<String, Object> with(Map<String, Object> base, String key, Object value) {
    Map<String, Object> copy = new LinkedHashMap<>(base);
    copy.put(key, value);
    return copy;
  }

  /** A copy of {@code base} without one member. */
  public static Map<String, Object> without(Map<String, Object> base, String key) {
    Map<String, Object> copy = new LinkedHashMap<>(base);
    copy.remove(key);
    return copy;
  }
}
