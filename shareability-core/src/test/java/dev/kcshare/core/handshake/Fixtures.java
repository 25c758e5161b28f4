package dev.kcshare.core.handshake;

import dev.kcshare.core.handshake.internal.Answers;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.jspecify.annotations.Nullable;

/** Small builders for plain JSON values and answers, shared by the handshake tests. */
public final class Fixtures {
  private Fixtures() {}

  /** An insertion-ordered object from alternating keys and values (values may be null). */
  public static Map<String, @Nullable Object> obj(@Nullable Object... keysAndValues) {
    if (keysAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("odd number of arguments");
    }
    Map<String, @Nullable Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  /** A mutable array (elements may be null). */
  public static List<@Nullable Object> arr(@Nullable Object... elements) {
    return new ArrayList<>(Arrays.asList(elements));
  }

  /** A tool object with a name and, when non-null, annotations. */
  public static Map<String, @Nullable Object> tool(
      @Nullable Object name, @Nullable Map<String, ?> annotations) {
    Map<String, @Nullable Object> tool = obj("name", name, "description", "does " + name);
    if (annotations != null) {
      tool.put("annotations", annotations);
    }
    return tool;
  }

  /** A legacy answer built directly, for tables that vary one facet at a time. */
  public static Answer legacy(
      @Nullable Map<String, ?> capabilities,
      String protocolVersion,
      Map<String, ?> serverInfo,
      List<?> names,
      List<?> annotations) {
    return new Answer(
        Era.LEGACY, capabilities, protocolVersion, List.of(), serverInfo, names, annotations);
  }

  /** A modern answer built directly. */
  public static Answer modern(
      @Nullable Map<String, ?> capabilities,
      List<?> supportedVersions,
      Map<String, ?> serverInfo,
      List<?> names,
      List<?> annotations) {
    return new Answer(
        Era.MODERN,
        capabilities,
        Answers.MODERN_PROTOCOL_VERSION,
        supportedVersions,
        serverInfo,
        names,
        annotations);
  }

  /** A baseline legacy answer with one of everything, to vary in tables. */
  public static Answer baseline() {
    return legacy(
        obj("tools", obj("listChanged", true)),
        "2025-03-26",
        obj("name", "srv", "version", "1.0.0"),
        List.of("read", "write"),
        List.of(obj("readOnlyHint", true)));
  }

  /** Wraps {@code leaf} in {@code depth} objects {@code {"a": ...}}, built without recursion. */
  public static Map<String, Object> nestedObjects(int depth, Object leaf) {
    Object value = leaf;
    for (int i = 0; i < depth; i++) {
      Map<String, Object> wrapper = new LinkedHashMap<>();
      wrapper.put("a", value);
      value = wrapper;
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> result = (Map<String, Object>) value;
    return result;
  }

  /** Wraps {@code leaf} in {@code depth} single-element arrays, built without recursion. */
  public static List<Object> nestedArrays(int depth, Object leaf) {
    Object value = leaf;
    for (int i = 0; i < depth; i++) {
      List<Object> wrapper = new ArrayList<>();
      wrapper.add(value);
      value = wrapper;
    }
    @SuppressWarnings("unchecked")
    List<Object> result = (List<Object>) value;
    return result;
  }

  /**
   * A deep copy whose objects get a shuffled insertion order; arrays keep their order (it is part
   * of a JSON value). For the shallow values of the randomised tests only (recursive).
   */
  public static @Nullable Object shuffledCopy(@Nullable Object value, SplittableRandom random) {
    if (value instanceof Map<?, ?> map) {
      List<Map.Entry<?, ?>> entries = new ArrayList<>(map.entrySet());
      shuffle(entries, random);
      Map<String, @Nullable Object> copy = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : entries) {
        copy.put((String) e.getKey(), shuffledCopy(e.getValue(), random));
      }
      return copy;
    }
    if (value instanceof List<?> list) {
      List<@Nullable Object> copy = new ArrayList<>();
      for (Object element : list) {
        copy.add(shuffledCopy(element, random));
      }
      return copy;
    }
    return value;
  }

  public static <T> void shuffle(List<T> list, SplittableRandom random) {
    for (int i = list.size() - 1; i > 0; i--) {
      Collections.swap(list, i, random.nextInt(i + 1));
    }
  }
}
