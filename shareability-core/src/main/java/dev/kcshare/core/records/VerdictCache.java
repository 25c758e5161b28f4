package dev.kcshare.core.records;

import dev.kcshare.core.json.CodePoints;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The in-memory pre-flight verdict cache of one evaluation pass (docs/design.md#cache-validity,
 * docs/design.md#applied-markers): rows keyed by server name, validated on read by execution
 * identity and reported version, plus the applied markers. The file, its lock and the flush are the
 * caller's: write {@link #toDocument()} when {@link #isDirty()}, then {@link #markClean()} after a
 * successful write.
 *
 * <p>Loading never dirties, even when it dropped rows. Dirty triggers: {@link #put}, {@link
 * #markApplied} of a new non-empty name, and a version drop in {@link #get}. Thread-safe (every
 * method holds the instance monitor briefly; nothing blocks on I/O). {@link #markClean()} clears
 * dirtiness unconditionally, so the flush must run where no {@code put} can land between {@link
 * #toDocument()} and it — at the end of a pass, under the pass lock (docs/design.md#running-a-pass,
 * docs/design.md#one-pass-at-a-time).
 *
 * <pre>{@code
 * VerdictCache cache = VerdictCache.of(CacheCodec.decode(parsedFile));
 * CacheLookup hit = cache.get("files-mcp", identity, "");   // identity-checked read
 * cache.markApplied("files-mcp");                           // seeding, under the pass lock
 * }</pre>
 */
public final class VerdictCache {
  private final TreeMap<String, CacheRow> rows = new TreeMap<>(CodePoints.ORDER);
  private final TreeSet<String> applied = new TreeSet<>(CodePoints.ORDER);
  private boolean dirty;

  private VerdictCache() {}

  /** An empty, clean cache (the file was missing or unreadable). */
  public static VerdictCache empty() {
    return new VerdictCache();
  }

  /** A clean cache holding what was loaded. */
  public static VerdictCache of(CacheLoad load) {
    VerdictCache cache = new VerdictCache();
    cache.rows.putAll(load.rows());
    cache.applied.addAll(load.applied());
    return cache;
  }

  /**
   * The identity-checked read. No row → {@code NO_ROW}. A different identity → {@code
   * IDENTITY_MISMATCH} and the row is kept (a fingerprint can read {@code unknown} transiently).
   * Same identity, and the stored and current reported versions both non-empty and different →
   * {@code VERSION_CHANGED}: the row is deleted and the cache is dirty; log {@link
   * CacheLookup#versionDropMessage(String)}. Otherwise a hit. An empty version on either side never
   * invalidates.
   */
  public synchronized CacheLookup get(String name, String identity, String currentVersion) {
    CacheRow row = rows.get(name);
    if (row == null) {
      return CacheLookup.miss(CacheLookup.Outcome.NO_ROW);
    }
    if (!row.identity().equals(identity)) {
      return CacheLookup.miss(CacheLookup.Outcome.IDENTITY_MISMATCH);
    }
    String stored = row.reportedVersion();
    if (!stored.isEmpty() && !currentVersion.isEmpty() && !stored.equals(currentVersion)) {
      rows.remove(name);
      dirty = true;
      return CacheLookup.versionChanged(stored, currentVersion);
    }
    return CacheLookup.hit(row);
  }

  /**
   * The row for a name with no identity or version check, for callers that cannot compute the
   * identity (a budgeted pass that yielded). Safe because schema and version mismatches delete rows
   * instead of hiding them.
   */
  public synchronized @Nullable CacheRow getByName(String name) {
    return rows.get(name);
  }

  /**
   * Stores the row for a name, overwriting the previous one; dirties. A row under the empty name is
   * ignored: it could never be read back.
   */
  public synchronized void put(String name, CacheRow row) {
    Objects.requireNonNull(row, "row");
    if (name.isEmpty()) {
      return;
    }
    rows.put(name, row);
    dirty = true;
  }

  /**
   * Marks a server's recommendation as written into config. Keyed by name and never pruned, so a
   * server removed and re-added is not seeded twice. {@code ""} is ignored; an existing name does
   * not dirty.
   */
  public synchronized void markApplied(String name) {
    if (!name.isEmpty() && applied.add(name)) {
      dirty = true;
    }
  }

  /** Whether the name carries an applied marker. */
  public synchronized boolean wasApplied(String name) {
    return applied.contains(name);
  }

  /** The applied markers, in code-point order. */
  public synchronized SortedSet<String> applied() {
    TreeSet<String> copy = new TreeSet<>(CodePoints.ORDER);
    copy.addAll(applied);
    return Collections.unmodifiableSortedSet(copy);
  }

  /** The names that have a row, in code-point order. */
  public synchronized SortedSet<String> serverNames() {
    TreeSet<String> copy = new TreeSet<>(CodePoints.ORDER);
    copy.addAll(rows.keySet());
    return Collections.unmodifiableSortedSet(copy);
  }

  /** The number of rows. */
  public synchronized int size() {
    return rows.size();
  }

  /** Whether the in-memory state differs from what was loaded or last written. */
  public synchronized boolean isDirty() {
    return dirty;
  }

  /** Records a successful write of {@link #toDocument()}. */
  public synchronized void markClean() {
    dirty = false;
  }

  /** The whole document to write ({@link CacheCodec#encode}). */
  public synchronized Map<String, Object> toDocument() {
    return CacheCodec.encode(rows, applied);
  }
}
