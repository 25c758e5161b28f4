package dev.kcshare.core.records;

import dev.kcshare.core.json.internal.Maps;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.jspecify.annotations.Nullable;

/**
 * What a tolerant read of {@code observed-hazards.json} produced (docs/design.md#read-tolerance).
 *
 * @param servers name → launch identity → record; every record has at least one known code and
 *     every name at least one record
 * @param cleared the file's valid {@code cleared} markers: name → epoch seconds (finite)
 * @param dropped what was left out or replaced, and why
 * @param refusal null when a writer may replace the file; otherwise why it must not
 *     (docs/design.md#files-left-unchanged), completing "the file …": {@code was written by a newer
 *     version (schema 2)}, or {@code is not a ledger this version understands (…)}. Such a file
 *     still reads as nothing observed.
 * @param extras the members this version does not know, for a writer to write back as read
 */
public record LedgerLoad(
    SortedMap<String, SortedMap<String, HazardRecord>> servers,
    SortedMap<String, Double> cleared,
    List<Dropped> dropped,
    @Nullable String refusal,
    LedgerExtras extras) {

  /**
   * Copies the collections.
   *
   * @param servers name → launch identity → record; every record has at least one known code and
   *     every name at least one record
   * @param cleared the file's valid {@code cleared} markers: name → epoch seconds (finite)
   * @param dropped what was left out or replaced, and why
   * @param refusal null when a writer may replace the file; otherwise why it must not
   *     (docs/design.md#files-left-unchanged), completing "the file …": {@code was written by a
   *     newer version (schema 2)}, or {@code is not a ledger this version understands (…)}. Such a
   *     file still reads as nothing observed.
   * @param extras the members this version does not know, for a writer to write back as read
   */
  public LedgerLoad {
    servers = Maps.nestedCopy(servers);
    cleared = Maps.sortedCopy(cleared);
    dropped = List.copyOf(dropped);
    java.util.Objects.requireNonNull(extras, "extras");
  }

  /**
   * A load with no unknown members.
   *
   * @param servers name → launch identity → record; every record has at least one known code and
   *     every name at least one record
   * @param cleared the file's valid {@code cleared} markers: name → epoch seconds (finite)
   * @param dropped what was left out or replaced, and why
   * @param refusal null when a writer may replace the file; otherwise why it must not
   *     (docs/design.md#files-left-unchanged), completing "the file …": {@code was written by a
   *     newer version (schema 2)}, or {@code is not a ledger this version understands (…)}. Such a
   *     file still reads as nothing observed.
   */
  public LedgerLoad(
      SortedMap<String, SortedMap<String, HazardRecord>> servers,
      SortedMap<String, Double> cleared,
      List<Dropped> dropped,
      @Nullable String refusal) {
    this(servers, cleared, dropped, refusal, LedgerExtras.NONE);
  }

  /**
   * A load a writer may replace.
   *
   * @param servers name → launch identity → record; every record has at least one known code and
   *     every name at least one record
   * @param cleared the file's valid {@code cleared} markers: name → epoch seconds (finite)
   * @param dropped what was left out or replaced, and why
   */
  public LedgerLoad(
      SortedMap<String, SortedMap<String, HazardRecord>> servers,
      SortedMap<String, Double> cleared,
      List<Dropped> dropped) {
    this(servers, cleared, dropped, null);
  }

  /**
   * Whether a writer must leave the file as it is ({@link #refusal()} is set).
   *
   * @return true iff the refusal is not null
   */
  public boolean isNotUnderstood() {
    return refusal != null;
  }

  /**
   * Nothing observed.
   *
   * @return a load with no records, markers, drops or unknown members, which a writer may replace
   */
  public static LedgerLoad empty() {
    return new LedgerLoad(Maps.nestedCopy(Map.of()), Maps.sortedCopy(Map.of()), List.of());
  }
}
