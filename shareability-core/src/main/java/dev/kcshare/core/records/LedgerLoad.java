package dev.kcshare.core.records;

import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * What a tolerant read of {@code observed-hazards.json} produced (docs/design.md#read-tolerance).
 *
 * @param servers name → launch identity → record; every record has at least one known code and
 *     every name at least one record
 * @param cleared the file's valid {@code cleared} markers: name → epoch seconds (finite)
 * @param dropped what was left out or replaced, and why
 */
public record LedgerLoad(
    SortedMap<String, SortedMap<String, HazardRecord>> servers,
    SortedMap<String, Double> cleared,
    List<Dropped> dropped) {

  /** Copies the collections. */
  public LedgerLoad {
    servers = Maps.ledgerCopy(servers);
    cleared = Maps.sortedCopy(cleared);
    dropped = List.copyOf(dropped);
  }

  /** Nothing observed. */
  public static LedgerLoad empty() {
    return new LedgerLoad(Maps.ledgerCopy(Map.of()), Maps.sortedCopy(Map.of()), List.of());
  }
}
