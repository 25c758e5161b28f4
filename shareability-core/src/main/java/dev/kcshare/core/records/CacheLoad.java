package dev.kcshare.core.records;

import dev.kcshare.core.json.CodePoints;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * What a tolerant read of {@code shareability-verdicts.json} produced
 * (docs/design.md#read-tolerance).
 *
 * @param rows server name → row; every row's identity carries schema 2
 * @param applied names whose recommendation was already written into config (non-empty strings)
 * @param dropped what was left out or replaced, and why
 * @param refusal null when a writer may replace the file; otherwise why it must not
 *     (docs/design.md#files-left-unchanged), completing "the file …", for example {@code is not a
 *     verdict cache this version understands (entries is array, not an object)}. Such a file still
 *     reads as not measured (apart from its applied markers, when they are readable).
 */
public record CacheLoad(
    SortedMap<String, CacheRow> rows,
    SortedSet<String> applied,
    List<Dropped> dropped,
    @Nullable String refusal) {

  /** Copies the collections. */
  public CacheLoad {
    rows = Maps.sortedCopy(rows);
    TreeSet<String> appliedCopy = new TreeSet<>(CodePoints.ORDER);
    appliedCopy.addAll(applied);
    applied = Collections.unmodifiableSortedSet(appliedCopy);
    dropped = List.copyOf(dropped);
  }

  /** A load a writer may replace. */
  public CacheLoad(
      SortedMap<String, CacheRow> rows, SortedSet<String> applied, List<Dropped> dropped) {
    this(rows, applied, dropped, null);
  }

  /** Whether a writer must leave the file as it is ({@link #refusal()} is set). */
  public boolean isNotUnderstood() {
    return refusal != null;
  }
}
