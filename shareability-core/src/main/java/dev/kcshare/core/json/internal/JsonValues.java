package dev.kcshare.core.json.internal;

import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Small predicates over plain JSON values, shared by the codecs and the comparison. */
public final class JsonValues {
  private JsonValues() {}

  /**
   * JSON truthiness as the Kiro Crew gateway (Python) applies it: false for {@code null}, {@code
   * false}, numeric zero, {@code ""}, {@code []} and {@code {}}; true otherwise.
   */
  public static boolean isTruthy(@Nullable Object value) {
    if (value == null) {
      return false;
    }
    if (value instanceof Boolean b) {
      return b;
    }
    if (value instanceof Number n) {
      double d = n.doubleValue();
      return d != 0 || Double.isNaN(d);
    }
    if (value instanceof String s) {
      return !s.isEmpty();
    }
    if (value instanceof List<?> l) {
      return !l.isEmpty();
    }
    if (value instanceof Map<?, ?> m) {
      return !m.isEmpty();
    }
    return true;
  }

  /** The value as a {@code Map<String, ?>} if it is a JSON object, else null. */
  @SuppressWarnings("unchecked")
  public static @Nullable Map<String, Object> asObject(@Nullable Object value) {
    return value instanceof Map<?, ?> m ? (Map<String, Object>) m : null;
  }

  /** The value as a list if it is a JSON array, else null. */
  public static @Nullable List<?> asArray(@Nullable Object value) {
    return value instanceof List<?> l ? l : null;
  }

  /** The value as a string if it is a JSON string, else null. */
  public static @Nullable String asString(@Nullable Object value) {
    return value instanceof String s ? s : null;
  }
}
