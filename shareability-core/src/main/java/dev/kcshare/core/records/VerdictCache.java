package dev.kcshare.core.records;

import dev.kcshare.core.handshake.EraChoice;
import dev.kcshare.core.json.RawJson;
import dev.kcshare.core.json.internal.CodePoints;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The in-memory pre-flight verdict cache of one evaluation pass (docs/design.md#cache-validity,
 * docs/design.md#applied-markers): rows keyed by server name, validated on read by execution
 * identity and reported version, plus the applied markers. The file, its lock and the flush are the
 * caller's.
 *
 * <p>Writing merges with the file (docs/design.md#cache-flush): re-read the file under its lock,
 * write {@link #merge}{@code (onDisk).toDocument()}, then call {@link #written}. The merge applies
 * only what this cache changed to what the file holds now: its own rows replace theirs, a row it
 * dropped (a version change) is dropped only if the file still holds the row it dropped, applied
 * markers are united, and every other row is the file's, written back as the file held it (unknown
 * members and rows of a newer entry schema included) — so rows another writer stored since this
 * cache was read are kept, and nothing this build does not understand is lost. ({@link
 * #toDocument()} and {@link #markClean()} remain for a file nobody else writes.)
 *
 * <p>Loading never dirties, even when it dropped rows. Dirty triggers: {@link #put}, {@link
 * #markApplied} of a new non-empty name, and a version drop in {@link #get}. Thread-safe (every
 * method holds the instance monitor briefly; nothing blocks on I/O); a change made while a merged
 * document is being written stays dirty for the next write.
 *
 * <pre>{@code
 * VerdictCache cache = VerdictCache.of(CacheCodec.decode(parsedFile));
 * CacheLookup hit = cache.get("files-mcp", identity, "");   // identity-checked read
 * cache.markApplied("files-mcp");                           // seeding, under the pass lock
 * }</pre>
 */
public final class VerdictCache {
  private TreeMap<String, CacheRow> rows = new TreeMap<>(CodePoints.ORDER);
  private final TreeSet<String> applied = new TreeSet<>(CodePoints.ORDER);

  /**
   * Why a row would be refused for its size, or null when it is within the limits
   * (docs/design.md#record-limits): a name longer than {@link HazardLedger#MAX_KEY_LENGTH}, or a
   * row of more than 4 MiB as compact JSON.
   *
   * @param name the server name (the row's key)
   * @param row the row
   * @return the reason, or null
   */
  public static @Nullable String rowRefusal(String name, CacheRow row) {
    return RecordLimits.rowRefusal(name, row);
  }

  /** What this cache changed since its last write, per name: a new object on every change. */
  private final Map<String, Change> changes = new HashMap<>();

  private final TreeSet<String> appliedNew = new TreeSet<>(CodePoints.ORDER);

  /**
   * One name's change since the last write.
   *
   * @param original the row the file held for it when this cache read it (null: none)
   * @param replacement the row to write, or null when the row was dropped
   */
  private record Change(@Nullable CacheRow original, @Nullable CacheRow replacement) {}

  private VerdictCache() {}

  /**
   * An empty, clean cache (the file was missing or unreadable).
   *
   * @return a new cache with no rows and no applied markers
   */
  public static VerdictCache empty() {
    return new VerdictCache();
  }

  /**
   * A clean cache holding what was loaded.
   *
   * @param load the decoded file ({@link CacheCodec#decode})
   * @return a new cache with the load's rows and applied markers, not dirty
   * @throws NullPointerException if {@code load} is null
   */
  public static VerdictCache of(CacheLoad load) {
    Objects.requireNonNull(load, "load");
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
   *
   * @param name the server name
   * @param identity the execution identity the server would be measured under now
   * @param currentVersion the {@code serverInfo.version} the server reports now, {@code ""} if
   *     unknown
   * @return the hit, or the miss and its outcome
   * @throws NullPointerException if an argument is null
   */
  public synchronized CacheLookup get(String name, String identity, String currentVersion) {
    return get(name, identity, currentVersion, null);
  }

  /**
   * {@link #get(String, String, String)} for a pass of the era choice {@code choice}: after the
   * identity check, the row's measurement that choice would have made ({@link CacheRow#forChoice});
   * none → {@code OTHER_ERA} and the row is kept (docs/design.md#rows-of-two-era-choices). The
   * version check then applies to that measurement and drops the whole row. A null choice reads the
   * row's own measurement, whatever its era (reports: the row says which era it measured).
   *
   * @param name the server name
   * @param identity the execution identity the server would be measured under now
   * @param currentVersion the {@code serverInfo.version} the server reports now, {@code ""} if
   *     unknown
   * @param choice the era choice of the pass, or null for the row's own measurement
   * @return the hit, or the miss and its outcome
   * @throws NullPointerException if {@code name}, {@code identity} or {@code currentVersion} is
   *     null
   */
  public synchronized CacheLookup get(
      String name, String identity, String currentVersion, @Nullable EraChoice choice) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(currentVersion, "currentVersion");
    CacheRow stored = rows.get(name);
    if (stored == null) {
      return CacheLookup.miss(CacheLookup.Outcome.NO_ROW);
    }
    if (!stored.identity().equals(identity)) {
      return CacheLookup.miss(CacheLookup.Outcome.IDENTITY_MISMATCH);
    }
    CacheRow row = choice == null ? stored : stored.forChoice(choice);
    if (row == null) {
      return CacheLookup.miss(CacheLookup.Outcome.OTHER_ERA);
    }
    return checkVersion(name, row, currentVersion);
  }

  private CacheLookup checkVersion(String name, CacheRow row, String currentVersion) {
    String stored = row.reportedVersion();
    if (!stored.isEmpty() && !currentVersion.isEmpty() && !stored.equals(currentVersion)) {
      change(name, null);
      return CacheLookup.versionChanged(stored, currentVersion);
    }
    return CacheLookup.hit(row);
  }

  /**
   * The row for a name with no identity or version check, for callers that cannot compute the
   * identity (a budgeted pass that yielded). Safe because schema and version mismatches delete rows
   * instead of hiding them.
   *
   * @param name the server name
   * @return the stored row, or null when there is none
   * @throws NullPointerException if {@code name} is null
   */
  public synchronized @Nullable CacheRow getByName(String name) {
    Objects.requireNonNull(name, "name");
    return rows.get(name);
  }

  /**
   * Stores the row for a name, overwriting the previous one; dirties. Refused — nothing changes —
   * for the empty name (it could never be read back) and for a row beyond the record limits ({@link
   * #rowRefusal} says why): a row the reader could not take is never written.
   *
   * @param name the server name the row is keyed by
   * @param row the row to store
   * @return true if the row was stored
   * @throws NullPointerException if an argument is null
   */
  public synchronized boolean put(String name, CacheRow row) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(row, "row");
    if (name.isEmpty() || RecordLimits.rowRefusal(name, row) != null) {
      return false;
    }
    change(name, row);
    return true;
  }

  /**
   * Stores a fresh measurement, merged with the row stored under the name ({@link CacheRow#merge}):
   * passes of two era choices keep each other's measurement. Refused as {@link #put} refuses.
   *
   * @param name the server name the row is keyed by
   * @param measured the row the pass measured
   * @return true if the row was stored
   * @throws NullPointerException if an argument is null
   */
  public synchronized boolean putMeasured(String name, CacheRow measured) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(measured, "measured");
    return put(name, CacheRow.merge(rows.get(name), measured));
  }

  /** Records a change (rows updated at once; the file's original kept for the merge). */
  private void change(String name, @Nullable CacheRow replacement) {
    Change previous = changes.get(name);
    CacheRow original = previous != null ? previous.original() : rows.get(name);
    changes.put(name, new Change(original, replacement));
    if (replacement == null) {
      rows.remove(name);
    } else {
      rows.put(name, replacement);
    }
  }

  /**
   * Marks a server's recommendation as written into config. Keyed by name and never pruned, so a
   * server removed and re-added is not seeded twice. {@code ""} is ignored; an existing name does
   * not dirty.
   *
   * @param name the server name whose recommendation was written
   * @throws NullPointerException if {@code name} is null
   */
  public synchronized void markApplied(String name) {
    Objects.requireNonNull(name, "name");
    if (!name.isEmpty() && applied.add(name)) {
      appliedNew.add(name);
    }
  }

  /**
   * Whether the name carries an applied marker.
   *
   * @param name the server name
   * @return true if its recommendation was written into config
   */
  public synchronized boolean wasApplied(String name) {
    return applied.contains(name);
  }

  /**
   * The applied markers, in code-point order.
   *
   * @return an unmodifiable copy
   */
  public synchronized SortedSet<String> applied() {
    TreeSet<String> copy = new TreeSet<>(CodePoints.ORDER);
    copy.addAll(applied);
    return Collections.unmodifiableSortedSet(copy);
  }

  /**
   * The names that have a row, in code-point order.
   *
   * @return an unmodifiable copy
   */
  public synchronized SortedSet<String> serverNames() {
    TreeSet<String> copy = new TreeSet<>(CodePoints.ORDER);
    copy.addAll(rows.keySet());
    return Collections.unmodifiableSortedSet(copy);
  }

  /**
   * The number of rows.
   *
   * @return how many server names have a row
   */
  public synchronized int size() {
    return rows.size();
  }

  /**
   * Whether the in-memory state differs from what was loaded or last written.
   *
   * @return true when a row or applied marker changed since then
   */
  public synchronized boolean isDirty() {
    return !changes.isEmpty() || !appliedNew.isEmpty();
  }

  /** Records a successful write of {@link #toDocument()} (a file no other writer shares). */
  public synchronized void markClean() {
    changes.clear();
    appliedNew.clear();
  }

  /**
   * This cache's whole state as a document ({@link CacheCodec#encode}), not merged.
   *
   * @return the document to write over a file no other writer shares
   */
  public synchronized Map<String, Object> toDocument() {
    return CacheCodec.encode(rows, applied);
  }

  /**
   * What to write over the file as it is now: this cache's changes applied to {@code onDisk} (see
   * the class comment). Pass it to {@link #written} once written.
   *
   * @param onDisk the file as just re-read, under its lock (never one read as not understood: that
   *     file must not be replaced)
   * @return the merged rows and markers
   */
  public synchronized Merge merge(CacheLoad onDisk) {
    Objects.requireNonNull(onDisk, "onDisk");
    TreeMap<String, CacheRow> merged = new TreeMap<>(CodePoints.ORDER);
    merged.putAll(onDisk.rows());
    TreeMap<String, RawJson> asRead = new TreeMap<>(CodePoints.ORDER);
    asRead.putAll(onDisk.asRead());
    for (Map.Entry<String, Change> e : changes.entrySet()) {
      Change change = e.getValue();
      CacheRow replacement = change.replacement();
      if (replacement != null) {
        merged.put(e.getKey(), replacement);
        asRead.remove(e.getKey());
      } else {
        CacheRow now = merged.get(e.getKey());
        if (now == null ? !asRead.containsKey(e.getKey()) : sameRow(now, change.original())) {
          merged.remove(e.getKey());
          asRead.remove(e.getKey());
        }
      }
    }
    TreeSet<String> mergedApplied = new TreeSet<>(CodePoints.ORDER);
    mergedApplied.addAll(onDisk.applied());
    mergedApplied.addAll(applied);
    return new Merge(
        merged,
        mergedApplied,
        asRead,
        onDisk.otherMembers(),
        new HashMap<>(changes),
        new TreeSet<>(appliedNew));
  }

  /**
   * Whether two rows are the same measurement, compared as written (the writer does not recurse, a
   * handshake's own equality would, as deep as the server nested it).
   */
  private static boolean sameRow(CacheRow a, @Nullable CacheRow b) {
    if (b == null) {
      return false;
    }
    return dev.kcshare.core.json.JsonWriter.compact(CacheCodec.encode(Map.of("r", a), List.of()))
        .equals(
            dev.kcshare.core.json.JsonWriter.compact(CacheCodec.encode(Map.of("r", b), List.of())));
  }

  /**
   * The merged document was written: this cache now holds what the file holds (plus any change made
   * since the merge, which keeps it dirty).
   *
   * @param merge the merge whose {@link Merge#toDocument()} was written
   * @throws NullPointerException if {@code merge} is null
   */
  public synchronized void written(Merge merge) {
    Objects.requireNonNull(merge, "merge");
    for (Map.Entry<String, Change> e : merge.changes.entrySet()) {
      changes.remove(e.getKey(), e.getValue());
    }
    appliedNew.removeAll(merge.appliedNew);
    TreeMap<String, CacheRow> now = new TreeMap<>(CodePoints.ORDER);
    now.putAll(merge.rows);
    for (Map.Entry<String, Change> e : changes.entrySet()) {
      CacheRow replacement = e.getValue().replacement();
      if (replacement != null) {
        now.put(e.getKey(), replacement);
      } else {
        now.remove(e.getKey());
      }
    }
    rows = now;
    applied.addAll(merge.applied);
  }

  /** A merged document to write; obtained from {@link #merge}. */
  public static final class Merge {
    private final SortedMap<String, CacheRow> rows;
    private final SortedSet<String> applied;
    private final SortedMap<String, RawJson> asRead;
    private final Map<String, RawJson> otherMembers;
    private final Map<String, Change> changes;
    private final SortedSet<String> appliedNew;

    private Merge(
        SortedMap<String, CacheRow> rows,
        SortedSet<String> applied,
        SortedMap<String, RawJson> asRead,
        Map<String, RawJson> otherMembers,
        Map<String, Change> changes,
        SortedSet<String> appliedNew) {
      this.rows = Collections.unmodifiableSortedMap(rows);
      this.applied = Collections.unmodifiableSortedSet(applied);
      this.asRead = Collections.unmodifiableSortedMap(asRead);
      this.otherMembers = otherMembers;
      this.changes = changes;
      this.appliedNew = appliedNew;
    }

    /**
     * The merged rows, by name.
     *
     * @return an unmodifiable map in code-point order
     */
    public SortedMap<String, CacheRow> rows() {
      return rows;
    }

    /**
     * The merged applied markers.
     *
     * @return an unmodifiable set in code-point order: the file's and this cache's
     */
    public SortedSet<String> applied() {
      return applied;
    }

    /**
     * The document to write ({@link CacheCodec#encode(Map, java.util.Collection, Map, Map)}): the
     * merged rows, and every row and top-level member of the file this cache did not replace
     * written back as the file held it.
     *
     * @return the document to write
     */
    public Map<String, Object> toDocument() {
      return CacheCodec.encode(rows, applied, asRead, otherMembers);
    }
  }
}
