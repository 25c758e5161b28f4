package dev.kcshare.core.handshake.internal;

import dev.kcshare.core.handshake.Answer;
import dev.kcshare.core.handshake.CacheHints;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.json.internal.JsonValues;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Builds an {@link Answer} from the raw JSON-RPC results one identity received
 * (docs/design.md#normalising-answers, docs/design.md#modern-era-servers). Wrong types inside a
 * result never fail: they read as "declared nothing", exactly as the Kiro Crew gateway reads them,
 * so both sides normalise the same server alike.
 */
public final class Answers {
  /** The one modern protocol version kcshare speaks; recorded as a modern answer's version. */
  public static final String MODERN_PROTOCOL_VERSION = "2026-07-28";

  /** The discover result's {@code _meta} key that carries the server's info. */
  public static final String SERVER_INFO_META_KEY = "io.modelcontextprotocol/serverInfo";

  /** The caching hint members of a cacheable modern result. */
  public static final String CACHE_SCOPE = "cacheScope";

  /** The freshness hint member of a cacheable modern result. */
  public static final String TTL_MS = "ttlMs";

  private Answers() {}

  /**
   * A legacy answer from the raw {@code initialize} result and the concatenated {@code tools}
   * elements of every {@code tools/list} page. A result that is not an object leaves the
   * capabilities null (no handshake observed).
   */
  public static Answer legacy(@Nullable Object initializeResult, List<?> tools) {
    Map<String, Object> result = JsonValues.asObject(initializeResult);
    if (result == null) {
      return new Answer(
          Era.LEGACY, null, "", List.of(), Map.of(), names(tools), annotations(tools));
    }
    Object version = result.get("protocolVersion");
    return new Answer(
        Era.LEGACY,
        objectOrEmpty(result.get("capabilities")),
        version instanceof String s ? s : "",
        List.of(),
        objectOrEmpty(result.get("serverInfo")),
        names(tools),
        annotations(tools));
  }

  /**
   * A modern-era answer from the raw {@code server/discover} result and the concatenated {@code
   * tools} elements, without page hints. Its protocolVersion is the one kcshare requested and the
   * server accepted.
   */
  public static Answer modern(@Nullable Object discoverResult, List<?> tools) {
    return modern(discoverResult, tools, List.of());
  }

  /**
   * A modern-era answer as {@link #modern(Object, List)}, with the caching hints of the discover
   * result and of {@code pages}, the raw {@code tools/list} results in page order (only their
   * {@code cacheScope} and {@code ttlMs} are read; a page that is not an object has neither).
   */
  public static Answer modern(@Nullable Object discoverResult, List<?> tools, List<?> pages) {
    List<Object> pageScopes = new ArrayList<>(pages.size());
    List<Object> pageTtls = new ArrayList<>(pages.size());
    for (Object page : pages) {
      Map<String, Object> object = JsonValues.asObject(page);
      pageScopes.add(object == null ? null : object.get(CACHE_SCOPE));
      pageTtls.add(object == null ? null : object.get(TTL_MS));
    }
    Map<String, Object> result = JsonValues.asObject(discoverResult);
    if (result == null) {
      return new Answer(
          Era.MODERN,
          null,
          MODERN_PROTOCOL_VERSION,
          List.of(),
          Map.of(),
          names(tools),
          annotations(tools),
          new CacheHints(null, null, pageScopes, pageTtls));
    }
    List<?> supported = JsonValues.asArray(result.get("supportedVersions"));
    Map<String, Object> meta = JsonValues.asObject(result.get("_meta"));
    return new Answer(
        Era.MODERN,
        objectOrEmpty(result.get("capabilities")),
        MODERN_PROTOCOL_VERSION,
        supported == null ? List.of() : supported,
        objectOrEmpty(meta == null ? null : meta.get(SERVER_INFO_META_KEY)),
        names(tools),
        annotations(tools),
        new CacheHints(result.get(CACHE_SCOPE), result.get(TTL_MS), pageScopes, pageTtls));
  }

  /**
   * The {@code tools} array of a {@code tools/list} result, or null when the result is not an
   * object or has no {@code tools} array (the prober's {@code tools/list: malformed response (no
   * tools list)}).
   */
  public static @Nullable List<?> toolsOf(@Nullable Object toolsListResult) {
    Map<String, Object> result = JsonValues.asObject(toolsListResult);
    return result == null ? null : JsonValues.asArray(result.get("tools"));
  }

  /** Truthy {@code name} members of object elements, kept raw so the engine can rule on them. */
  private static List<Object> names(List<?> tools) {
    List<Object> names = new ArrayList<>(tools.size());
    for (Object tool : tools) {
      Map<String, Object> object = JsonValues.asObject(tool);
      if (object != null) {
        Object name = object.get("name");
        if (JsonValues.isTruthy(name)) {
          names.add(name);
        }
      }
    }
    return names;
  }

  /** {@code annotations} objects, under a predicate independent of {@link #names}. */
  private static List<Object> annotations(List<?> tools) {
    List<Object> annotations = new ArrayList<>();
    for (Object tool : tools) {
      Map<String, Object> object = JsonValues.asObject(tool);
      if (object != null && object.get("annotations") instanceof Map<?, ?> annotation) {
        annotations.add(annotation);
      }
    }
    return annotations;
  }

  private static Map<String, ?> objectOrEmpty(@Nullable Object value) {
    Map<String, Object> object = JsonValues.asObject(value);
    return object == null ? Map.of() : object;
  }
}
