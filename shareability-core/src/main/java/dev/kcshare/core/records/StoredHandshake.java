package dev.kcshare.core.records;

import dev.kcshare.core.handshake.Answer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Identity A's normalised answer, stored in a verdict-cache row so reports can build evidence
 * without spawning anything (docs/design.md#stored-handshake). Server-provided objects are held as
 * unmodifiable deep copies with members in code-point order, the order they are written in.
 *
 * @param capabilities the server's capabilities; null when the initialize result was not an object
 * @param protocolVersion the protocol version the server answered, {@code ""} if none
 * @param serverInfo the server's {@code serverInfo} ({@code {}} when absent)
 * @param toolAnnotations the {@code annotations} objects of the tool listing, in listing order
 * @param hasTools the listing produced at least one tool with a truthy name
 */
public record StoredHandshake(
    @Nullable Map<String, ?> capabilities,
    String protocolVersion,
    Map<String, ?> serverInfo,
    List<Map<String, ?>> toolAnnotations,
    boolean hasTools) {

  public StoredHandshake {
    Objects.requireNonNull(protocolVersion, "protocolVersion");
    capabilities = capabilities == null ? null : JsonTrees.sortedCopy(capabilities);
    serverInfo = JsonTrees.sortedCopy(serverInfo);
    List<Map<String, ?>> annotations = new ArrayList<>(toolAnnotations.size());
    for (Map<String, ?> annotation : toolAnnotations) {
      annotations.add(JsonTrees.sortedCopy(annotation));
    }
    toolAnnotations = Collections.unmodifiableList(annotations);
  }

  /**
   * The stored form of an answer: its capabilities, protocol version, serverInfo, the annotation
   * objects of its listing (anything else in {@link Answer#toolAnnotations} is left out) and
   * whether it listed tools.
   */
  public static StoredHandshake of(Answer answer) {
    List<Map<String, ?>> annotations = new ArrayList<>();
    for (Object annotation : answer.toolAnnotations()) {
      if (annotation instanceof Map<?, ?> map) {
        annotations.add(stringKeyed(map));
      }
    }
    return new StoredHandshake(
        answer.capabilities(),
        answer.protocolVersion(),
        answer.serverInfo(),
        annotations,
        answer.hasTools());
  }

  /** The {@code handshake} member value, members in the order of docs/design.md#writing-files. */
  Map<String, @Nullable Object> toJson() {
    Map<String, @Nullable Object> out = new LinkedHashMap<>();
    out.put("capabilities", capabilities);
    out.put("protocolVersion", protocolVersion);
    out.put("serverInfo", serverInfo);
    out.put("toolAnnotations", toolAnnotations);
    out.put("hasTools", hasTools);
    return out;
  }

  /**
   * Reads a stored {@code handshake} member (docs/design.md#stored-handshake), or null when it is
   * not well formed: not an object, {@code capabilities} missing or neither an object nor null, or
   * {@code hasTools} not a boolean. Lenient parts: {@code protocolVersion} non-string → {@code ""};
   * {@code serverInfo} non-object → {@code {}}; {@code toolAnnotations} non-array → {@code []},
   * non-object elements dropped.
   */
  static @Nullable StoredHandshake fromJson(@Nullable Object value) {
    if (!(value instanceof Map<?, ?> map)
        || !map.containsKey("capabilities")
        || !(map.get("hasTools") instanceof Boolean hasTools)) {
      return null;
    }
    Object capabilities = map.get("capabilities");
    if (capabilities != null && !(capabilities instanceof Map<?, ?>)) {
      return null;
    }
    List<Map<String, ?>> annotations = new ArrayList<>();
    if (map.get("toolAnnotations") instanceof List<?> list) {
      for (Object element : list) {
        if (element instanceof Map<?, ?> annotation) {
          annotations.add(stringKeyed(annotation));
        }
      }
    }
    return new StoredHandshake(
        capabilities == null ? null : stringKeyed((Map<?, ?>) capabilities),
        map.get("protocolVersion") instanceof String s ? s : "",
        map.get("serverInfo") instanceof Map<?, ?> info ? stringKeyed(info) : Map.of(),
        annotations,
        hasTools);
  }

  /** A JSON object as the string-keyed map it is; the deep copy stringifies any other key. */
  @SuppressWarnings("unchecked")
  private static Map<String, ?> stringKeyed(Map<?, ?> map) {
    return (Map<String, ?>) map;
  }
}
