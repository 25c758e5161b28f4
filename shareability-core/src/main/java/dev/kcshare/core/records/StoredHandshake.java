package dev.kcshare.core.records;

import dev.kcshare.core.handshake.Answer;
import dev.kcshare.core.handshake.CacheHints;
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
 * @param supportedVersions modern only: the discover result's {@code supportedVersions} (kcshare's
 *     own member, written when not empty)
 * @param cacheHints modern only: the {@code cacheScope} and {@code ttlMs} of discover and of each
 *     listing page (kcshare's own {@code cache} member, written when any was received)
 */
public record StoredHandshake(
    @Nullable Map<String, ?> capabilities,
    String protocolVersion,
    Map<String, ?> serverInfo,
    List<Map<String, ?>> toolAnnotations,
    boolean hasTools,
    List<?> supportedVersions,
    CacheHints cacheHints) {

  private static final String SUPPORTED_VERSIONS = "supportedVersions";
  private static final String CACHE = "cache";
  private static final String DISCOVER = "discover";
  private static final String TOOLS_LIST = "toolsList";

  /**
   * Validates and copies: the server-provided objects become unmodifiable deep copies with members
   * in code-point order.
   *
   * @param capabilities the server's capabilities; null when the initialize result was not an
   *     object
   * @param protocolVersion the protocol version the server answered, {@code ""} if none
   * @param serverInfo the server's {@code serverInfo} ({@code {}} when absent)
   * @param toolAnnotations the {@code annotations} objects of the tool listing, in listing order
   * @param hasTools the listing produced at least one tool with a truthy name
   * @param supportedVersions modern only: the discover result's {@code supportedVersions}
   * @param cacheHints modern only: the {@code cacheScope} and {@code ttlMs} received
   * @throws NullPointerException if {@code protocolVersion} or {@code cacheHints} is null
   */
  public StoredHandshake {
    Objects.requireNonNull(protocolVersion, "protocolVersion");
    Objects.requireNonNull(cacheHints, "cacheHints");
    supportedVersions = Collections.unmodifiableList(new ArrayList<>(supportedVersions));
    capabilities = capabilities == null ? null : JsonTrees.sortedCopy(capabilities);
    serverInfo = JsonTrees.sortedCopy(serverInfo);
    List<Map<String, ?>> annotations = new ArrayList<>(toolAnnotations.size());
    for (Map<String, ?> annotation : toolAnnotations) {
      annotations.add(JsonTrees.sortedCopy(annotation));
    }
    toolAnnotations = Collections.unmodifiableList(annotations);
  }

  /**
   * A handshake without the modern members.
   *
   * @param capabilities the server's capabilities; null when the initialize result was not an
   *     object
   * @param protocolVersion the protocol version the server answered, {@code ""} if none
   * @param serverInfo the server's {@code serverInfo} ({@code {}} when absent)
   * @param toolAnnotations the {@code annotations} objects of the tool listing, in listing order
   * @param hasTools the listing produced at least one tool with a truthy name
   */
  public StoredHandshake(
      @Nullable Map<String, ?> capabilities,
      String protocolVersion,
      Map<String, ?> serverInfo,
      List<Map<String, ?>> toolAnnotations,
      boolean hasTools) {
    this(
        capabilities,
        protocolVersion,
        serverInfo,
        toolAnnotations,
        hasTools,
        List.of(),
        CacheHints.NONE);
  }

  /**
   * The stored form of an answer: its capabilities, protocol version, serverInfo, the annotation
   * objects of its listing (anything else in {@link Answer#toolAnnotations} is left out) and
   * whether it listed tools.
   *
   * @param answer identity A's normalised answer
   * @return the handshake to store in a verdict-cache row
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
        answer.hasTools(),
        answer.supportedVersions(),
        answer.cacheHints());
  }

  /** The {@code handshake} member value, members in the order of docs/design.md#writing-files. */
  Map<String, @Nullable Object> toJson() {
    Map<String, @Nullable Object> out = new LinkedHashMap<>();
    out.put("capabilities", capabilities);
    out.put("protocolVersion", protocolVersion);
    out.put("serverInfo", serverInfo);
    out.put("toolAnnotations", toolAnnotations);
    out.put("hasTools", hasTools);
    if (!supportedVersions.isEmpty()) {
      out.put(SUPPORTED_VERSIONS, supportedVersions);
    }
    if (!cacheHints.isEmpty()) {
      Map<String, Object> cache = new LinkedHashMap<>();
      cache.put(DISCOVER, hint(cacheHints.discoverScope(), cacheHints.discoverTtlMs()));
      List<Object> pages = new ArrayList<>();
      for (int i = 0; i < cacheHints.pageScopes().size(); i++) {
        pages.add(hint(cacheHints.pageScopes().get(i), cacheHints.pageTtlMs().get(i)));
      }
      cache.put(TOOLS_LIST, pages);
      out.put(CACHE, cache);
    }
    return out;
  }

  private static Map<String, Object> hint(@Nullable Object scope, @Nullable Object ttl) {
    Map<String, Object> out = new LinkedHashMap<>();
    if (scope != null) {
      out.put("cacheScope", scope);
    }
    if (ttl != null) {
      out.put("ttlMs", ttl);
    }
    return out;
  }

  /** The stored {@code cache} member read back; anything not well formed reads as absent. */
  private static CacheHints hintsOf(@Nullable Object value) {
    if (!(value instanceof Map<?, ?> cache)) {
      return CacheHints.NONE;
    }
    Object scope = null;
    Object ttl = null;
    if (cache.get(DISCOVER) instanceof Map<?, ?> discover) {
      scope = discover.get("cacheScope");
      ttl = discover.get("ttlMs");
    }
    List<Object> scopes = new ArrayList<>();
    List<Object> ttls = new ArrayList<>();
    if (cache.get(TOOLS_LIST) instanceof List<?> pages) {
      for (Object page : pages) {
        Map<?, ?> p = page instanceof Map<?, ?> m ? m : Map.of();
        scopes.add(p.get("cacheScope"));
        ttls.add(p.get("ttlMs"));
      }
    }
    return new CacheHints(scope, ttl, scopes, ttls);
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
        hasTools,
        map.get(SUPPORTED_VERSIONS) instanceof List<?> versions ? versions : List.of(),
        hintsOf(map.get(CACHE)));
  }

  /** A JSON object as the string-keyed map it is; the deep copy stringifies any other key. */
  @SuppressWarnings("unchecked")
  private static Map<String, ?> stringKeyed(Map<?, ?> map) {
    return (Map<String, ?>) map;
  }
}
