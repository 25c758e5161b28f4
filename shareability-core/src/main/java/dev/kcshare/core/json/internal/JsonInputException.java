package dev.kcshare.core.json.internal;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Input JSON did not have the form a command or API requires. Carries the location as a JSON
 * Pointer (RFC 6901, {@code ""} for the whole document) and what was expected there, so a caller
 * can name the exact member at fault.
 */
public final class JsonInputException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String pointer;
  private final String problem;

  /**
   * @param pointer JSON Pointer of the offending value, {@code ""} for the root
   * @param problem what was wrong, for example {@code "expected a boolean, got a string"}
   */
  public JsonInputException(String pointer, String problem) {
    super((pointer.isEmpty() ? "(root)" : pointer) + ": " + problem);
    this.pointer = Objects.requireNonNull(pointer, "pointer");
    this.problem = Objects.requireNonNull(problem, "problem");
  }

  /** JSON Pointer of the offending value; {@code ""} for the whole document. */
  public String pointer() {
    return pointer;
  }

  /** What was wrong there. */
  public String problem() {
    return problem;
  }

  /** Appends one reference token to a pointer, escaping {@code ~} and {@code /} per RFC 6901. */
  public static String child(String pointer, String token) {
    if (token.indexOf('~') < 0 && token.indexOf('/') < 0) {
      return pointer + "/" + token;
    }
    return pointer + "/" + token.replace("~", "~0").replace("/", "~1");
  }

  /** Appends an array index to a pointer. */
  public static String child(String pointer, int index) {
    return pointer + "/" + index;
  }

  /** A short JSON type name for messages: object, array, string, number, boolean or null. */
  public static String typeName(@Nullable Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof java.util.Map) {
      return "object";
    }
    if (value instanceof java.util.List) {
      return "array";
    }
    if (value instanceof String) {
      return "string";
    }
    if (value instanceof Number) {
      return "number";
    }
    if (value instanceof Boolean) {
      return "boolean";
    }
    return value.getClass().getSimpleName();
  }
}
