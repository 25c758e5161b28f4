package dev.kcshare.core.handshake;

import java.util.Objects;

/**
 * The outcome of comparing two answers.
 *
 * @param ran false only for malformed tool names: the server could not be measured
 * @param callerSensitive some facet differed (meaningful only when {@code ran})
 * @param detail the first differing facet ({@code initialize_shape_differs}, {@code
 *     discover_shape_differs}, {@code tools_shape_differs}), {@code malformed_tool_names}, or
 *     {@code ""}
 */
public record Comparison(boolean ran, boolean callerSensitive, String detail) {
  /**
   * Validates.
   *
   * @param ran false only for malformed tool names: the server could not be measured
   * @param callerSensitive some facet differed (meaningful only when {@code ran})
   * @param detail the first differing facet ({@code initialize_shape_differs}, {@code
   *     discover_shape_differs}, {@code tools_shape_differs}), {@code malformed_tool_names}, or
   *     {@code ""}
   */
  public Comparison {
    Objects.requireNonNull(detail, "detail");
  }
}
