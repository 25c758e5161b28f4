package dev.kcshare.core.handshake;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One identity's normalised handshake answer, the unit the comparison works on.
 *
 * @param era how the answer was obtained
 * @param capabilities the advertised capabilities; null when the initialize (or discover) result
 *     was not an object
 * @param protocolVersion legacy: the answered version ({@code ""} when absent or not a string);
 *     modern: the requested and accepted version
 * @param supportedVersions modern only: the discover result's {@code supportedVersions} elements
 *     (any JSON values); empty for legacy
 * @param serverInfo the server's {@code serverInfo} ({@code {}} when absent or not an object)
 * @param toolNames raw JSON values of the truthy {@code name} members, listing order
 * @param toolAnnotations the {@code annotations} objects, listing order
 * @param cacheHints modern only: the caching hints of discover and of each page ({@link
 *     CacheHints#NONE} for legacy)
 */
public record Answer(
    Era era,
    @Nullable Map<String, ?> capabilities,
    String protocolVersion,
    List<?> supportedVersions,
    Map<String, ?> serverInfo,
    List<?> toolNames,
    List<?> toolAnnotations,
    CacheHints cacheHints) {

  /**
   * Validates and copies: the server-provided maps and lists become unmodifiable copies.
   *
   * @param era how the answer was obtained
   * @param capabilities the advertised capabilities; null when the initialize (or discover) result
   *     was not an object
   * @param protocolVersion legacy: the answered version ({@code ""} when absent or not a string);
   *     modern: the requested and accepted version
   * @param supportedVersions modern only: the discover result's {@code supportedVersions} elements
   *     (any JSON values); empty for legacy
   * @param serverInfo the server's {@code serverInfo} ({@code {}} when absent or not an object)
   * @param toolNames raw JSON values of the truthy {@code name} members, listing order
   * @param toolAnnotations the {@code annotations} objects, listing order
   * @param cacheHints modern only: the caching hints of discover and of each page ({@link
   *     CacheHints#NONE} for legacy)
   */
  public Answer {
    Objects.requireNonNull(era, "era");
    Objects.requireNonNull(cacheHints, "cacheHints");
    Objects.requireNonNull(protocolVersion, "protocolVersion");
    capabilities =
        capabilities == null
            ? null
            : Collections.unmodifiableMap(new LinkedHashMap<>(capabilities));
    supportedVersions = Collections.unmodifiableList(new ArrayList<>(supportedVersions));
    serverInfo = Collections.unmodifiableMap(new LinkedHashMap<>(serverInfo));
    toolNames = Collections.unmodifiableList(new ArrayList<>(toolNames));
    toolAnnotations = Collections.unmodifiableList(new ArrayList<>(toolAnnotations));
  }

  /**
   * An answer without caching hints.
   *
   * @param era how the answer was obtained
   * @param capabilities the advertised capabilities; null when the initialize (or discover) result
   *     was not an object
   * @param protocolVersion legacy: the answered version ({@code ""} when absent or not a string);
   *     modern: the requested and accepted version
   * @param supportedVersions modern only: the discover result's {@code supportedVersions} elements
   *     (any JSON values); empty for legacy
   * @param serverInfo the server's {@code serverInfo} ({@code {}} when absent or not an object)
   * @param toolNames raw JSON values of the truthy {@code name} members, listing order
   * @param toolAnnotations the {@code annotations} objects, listing order
   */
  public Answer(
      Era era,
      @Nullable Map<String, ?> capabilities,
      String protocolVersion,
      List<?> supportedVersions,
      Map<String, ?> serverInfo,
      List<?> toolNames,
      List<?> toolAnnotations) {
    this(
        era,
        capabilities,
        protocolVersion,
        supportedVersions,
        serverInfo,
        toolNames,
        toolAnnotations,
        CacheHints.NONE);
  }

  /**
   * The listing produced at least one tool with a truthy name.
   *
   * @return true iff some listed tool name is truthy
   */
  public boolean hasTools() {
    return !toolNames.isEmpty();
  }

  /**
   * {@code serverInfo.version} if it is a string, else {@code ""}.
   *
   * @return the reported version
   */
  public String reportedVersion() {
    return serverInfo.get("version") instanceof String s ? s : "";
  }
}
