package dev.kcshare.core.records.host;

import dev.kcshare.core.json.host.CodePoints;
import dev.kcshare.core.records.HazardRecord;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;

/** Immutable code-point-ordered copies, the form every name- or identity-keyed map is held in. */
public final class Maps {
  private Maps() {}

  public static <V> SortedMap<String, V> sortedCopy(Map<String, ? extends V> map) {
    TreeMap<String, V> copy = new TreeMap<>(CodePoints.ORDER);
    copy.putAll(map);
    return Collections.unmodifiableSortedMap(copy);
  }

  public static <V, W> SortedMap<String, W> sortedCopy(
      Map<String, ? extends V> map, Function<? super V, ? extends W> valueCopy) {
    TreeMap<String, W> copy = new TreeMap<>(CodePoints.ORDER);
    for (Map.Entry<String, ? extends V> e : map.entrySet()) {
      copy.put(e.getKey(), valueCopy.apply(e.getValue()));
    }
    return Collections.unmodifiableSortedMap(copy);
  }

  /** A ledger's name → identity → record map, copied at both levels. */
  public static SortedMap<String, SortedMap<String, HazardRecord>> ledgerCopy(
      Map<String, ? extends Map<String, HazardRecord>> servers) {
    return sortedCopy(servers, Maps::sortedCopy);
  }
}
