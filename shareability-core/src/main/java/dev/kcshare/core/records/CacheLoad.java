package dev.kcshare.core.records;

import dev.kcshare.core.json.RawJson;
import dev.kcshare.core.json.internal.CodePoints;
import dev.kcshare.core.json.internal.Maps;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
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
 * @param asRead for a read by a writer
 *     (docs/formats.md#what-kcshare-keeps-when-it-rewrites-a-file): the rows to write back as the
 *     file held them, by name — every row this build did not take (a newer entry schema, a row it
 *     drops) and every row it took whose value it would not write back identically (unknown
 *     members, replaced lenient members); empty for a plain read
 * @param otherMembers for a read by a writer: the top-level members other than {@code entries} and
 *     {@code applied}, in file order, to be written back as read; empty for a plain read
 */
public record CacheLoad(
    SortedMap<String, CacheRow> rows,
    SortedSet<String> applied,
    List<Dropped> dropped,
    @Nullable String refusal,
    SortedMap<String, RawJson> asRead,
    Map<String, RawJson> otherMembers) {

  /**
   * Copies the collections.
   *
   * @param rows server name → row; every row's identity carries schema 2
   * @param applied names whose recommendation was already written into config (non-empty strings)
   * @param dropped what was left out or replaced, and why
   * @param refusal null when a writer may replace the file; otherwise why it must not
   *     (docs/design.md#files-left-unchanged), completing "the file …", for example {@code is not a
   *     verdict cache this version understands (entries is array, not an object)}. Such a file
   *     still reads as not measured (apart from its applied markers, when they are readable).
   * @param asRead for a read by a writer
   *     (docs/formats.md#what-kcshare-keeps-when-it-rewrites-a-file): the rows to write back as the
   *     file held them, by name — every row this build did not take (a newer entry schema, a row it
   *     drops) and every row it took whose value it would not write back identically (unknown
   *     members, replaced lenient members); empty for a plain read
   * @param otherMembers for a read by a writer: the top-level members other than {@code entries}
   *     and {@code applied}, in file order, to be written back as read; empty for a plain read
   */
  public CacheLoad {
    rows = Maps.sortedCopy(rows);
    TreeSet<String> appliedCopy = new TreeSet<>(CodePoints.ORDER);
    appliedCopy.addAll(applied);
    applied = Collections.unmodifiableSortedSet(appliedCopy);
    dropped = List.copyOf(dropped);
    asRead = Maps.sortedCopy(asRead);
    otherMembers = Collections.unmodifiableMap(new LinkedHashMap<>(otherMembers));
  }

  /**
   * A load with nothing kept as read (a plain read).
   *
   * @param rows server name → row; every row's identity carries schema 2
   * @param applied names whose recommendation was already written into config (non-empty strings)
   * @param dropped what was left out or replaced, and why
   * @param refusal null when a writer may replace the file; otherwise why it must not
   *     (docs/design.md#files-left-unchanged), completing "the file …", for example {@code is not a
   *     verdict cache this version understands (entries is array, not an object)}. Such a file
   *     still reads as not measured (apart from its applied markers, when they are readable).
   */
  public CacheLoad(
      SortedMap<String, CacheRow> rows,
      SortedSet<String> applied,
      List<Dropped> dropped,
      @Nullable String refusal) {
    this(rows, applied, dropped, refusal, new TreeMap<>(CodePoints.ORDER), Map.of());
  }

  /**
   * A load a writer may replace.
   *
   * @param rows server name → row; every row's identity carries schema 2
   * @param applied names whose recommendation was already written into config (non-empty strings)
   * @param dropped what was left out or replaced, and why
   */
  public CacheLoad(
      SortedMap<String, CacheRow> rows, SortedSet<String> applied, List<Dropped> dropped) {
    this(rows, applied, dropped, null);
  }

  /**
   * Whether a writer must leave the file as it is ({@link #refusal()} is set).
   *
   * @return true iff the refusal is not null
   */
  public boolean isNotUnderstood() {
    return refusal != null;
  }
}
