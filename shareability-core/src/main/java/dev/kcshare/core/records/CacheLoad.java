package dev.kcshare.core.records;

import dev.kcshare.core.json.CodePoints;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What a tolerant read of {@code shareability-verdicts.json} produced
 * (docs/design.md#read-tolerance).
 *
 * @param rows server name → row; every row's identity carries schema 2
 * @param applied names whose recommendation was already written into config (non-empty strings)
 * @param dropped what was left out or replaced, and why
 */
public record CacheLoad(
    SortedMap<String, CacheRow> rows, SortedSet<String> applied, List<Dropped> dropped) {

  /** Copies the collections. */
  public CacheLoad {
    rows = Maps.sortedCopy(rows);
    TreeSet<String> appliedCopy = new TreeSet<>(CodePoints.ORDER);
    appliedCopy.addAll(applied);
    applied = Collections.unmodifiableSortedSet(appliedCopy);
    dropped = List.copyOf(dropped);
  }
}
