package dev.kcshare.core.json;

import java.util.Objects;

/**
 * A JSON value kept as the compact text {@link JsonWriter#compact} made of it, to be written back
 * as the same value: what a record file held that this build does not take apart
 * (docs/formats.md#what-kcshare-keeps-when-it-rewrites-a-file). {@link JsonWriter} writes it in
 * place of a value, re-indented in the pretty style, so it reads back as the value it was made
 * from. Holding the text rather than the parsed value keeps a large file's unknown rows at about
 * their size on disk.
 *
 * @param text compact JSON text of one value, as written by {@link JsonWriter#compact}
 */
public record RawJson(String text) {
  /**
   * Validates.
   *
   * @param text compact JSON text of one value, as written by {@link JsonWriter#compact}
   * @throws NullPointerException if {@code text} is null
   */
  public RawJson {
    Objects.requireNonNull(text, "text");
  }

  /**
   * The compact text of a plain JSON value.
   *
   * @param value a plain JSON value (map, list, string, number, boolean or null)
   * @return the value kept as its {@link JsonWriter#compact} text
   */
  public static RawJson of(@org.jspecify.annotations.Nullable Object value) {
    return new RawJson(JsonWriter.compact(value));
  }
}
