package dev.kcshare.core.handshake;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The caching hints of a modern-era answer (docs/design.md#what-a-modern-exchange-reads): the
 * {@code cacheScope} and {@code ttlMs} members of the {@code server/discover} result and of each
 * {@code tools/list} page, as received (any JSON value; null when absent).
 *
 * @param discoverScope the discover result's {@code cacheScope}
 * @param discoverTtlMs the discover result's {@code ttlMs}
 * @param pageScopes each page's {@code cacheScope}, in page order
 * @param pageTtlMs each page's {@code ttlMs}, in page order
 */
public record CacheHints(
    @Nullable Object discoverScope,
    @Nullable Object discoverTtlMs,
    List<?> pageScopes,
    List<?> pageTtlMs) {

  /** No hints: every legacy answer. */
  public static final CacheHints NONE = new CacheHints(null, null, List.of(), List.of());

  /** The scope that lets any caller share a cached answer. */
  public static final String PUBLIC = "public";

  /**
   * Copies the page lists (unmodifiable).
   *
   * @param discoverScope the discover result's {@code cacheScope}
   * @param discoverTtlMs the discover result's {@code ttlMs}
   * @param pageScopes each page's {@code cacheScope}, in page order
   * @param pageTtlMs each page's {@code ttlMs}, in page order
   */
  public CacheHints {
    pageScopes = Collections.unmodifiableList(new ArrayList<>(pageScopes));
    pageTtlMs = Collections.unmodifiableList(new ArrayList<>(pageTtlMs));
  }

  /**
   * Whether nothing was received.
   *
   * @return true iff no discover or page hint was present
   */
  public boolean isEmpty() {
    return discoverScope == null
        && discoverTtlMs == null
        && pageScopes.stream().allMatch(v -> v == null)
        && pageTtlMs.stream().allMatch(v -> v == null);
  }

  /**
   * The discover result and at least one page, every one of them, answered {@code "public"}.
   *
   * @return true iff discover and every page (at least one) gave the scope {@code "public"}
   */
  public boolean allPublic() {
    if (!PUBLIC.equals(discoverScope) || pageScopes.isEmpty()) {
      return false;
    }
    for (Object scope : pageScopes) {
      if (!PUBLIC.equals(scope)) {
        return false;
      }
    }
    return true;
  }
}
