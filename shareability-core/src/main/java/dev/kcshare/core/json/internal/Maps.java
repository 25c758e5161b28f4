package dev.kcshare.core.json.internal;

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

  /** A name → key → value map (a ledger's name → identity → record), copied at both levels. */
  public static <V> SortedMap<String, SortedMap<String, V>> nestedCopy(
      Map<String, ? extends Map<String, V>> servers) {
    return sortedCopy(servers, Maps::sortedCopy);
  }
}
