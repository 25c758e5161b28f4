package dev.kcshare.core.records;

import dev.kcshare.core.json.RawJson;
import dev.kcshare.core.json.internal.CodePoints;
import dev.kcshare.core.json.internal.Maps;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The members of a ledger file this version does not know, kept so that a writer writes them back
 * as read (docs/formats.md#what-kcshare-keeps-when-it-rewrites-a-file): at the top level (other
 * than {@code schema}, {@code servers}, {@code cleared}), in a server entry (other than {@code
 * identities}, {@code codes}, {@code count}, {@code lastSeen}) and in an identity record (other
 * than {@code codes}, {@code count}, {@code lastSeen}). Each value is held as compact JSON text.
 *
 * @param top unknown top-level members, in file order
 * @param servers server name → its entry's unknown members, in file order
 * @param identities server name → launch identity → that record's unknown members, in file order
 */
public record LedgerExtras(
    Map<String, RawJson> top,
    SortedMap<String, Map<String, RawJson>> servers,
    SortedMap<String, SortedMap<String, Map<String, RawJson>>> identities) {

  /** Nothing unknown. */
  public static final LedgerExtras NONE =
      new LedgerExtras(Map.of(), new TreeMap<>(CodePoints.ORDER), new TreeMap<>(CodePoints.ORDER));

  /**
   * Copies the maps.
   *
   * @param top unknown top-level members, in file order
   * @param servers server name → its entry's unknown members, in file order
   * @param identities server name → launch identity → that record's unknown members, in file order
   */
  public LedgerExtras {
    top = Collections.unmodifiableMap(new LinkedHashMap<>(top));
    servers = Maps.sortedCopy(servers, m -> Collections.unmodifiableMap(new LinkedHashMap<>(m)));
    identities =
        Maps.sortedCopy(
            identities,
            ids -> Maps.sortedCopy(ids, m -> Collections.unmodifiableMap(new LinkedHashMap<>(m))));
  }

  /**
   * These extras without anything of {@code name} (a clear removes the whole server).
   *
   * @param name the server name whose entry and identity records' unknown members are dropped
   * @return new extras with the same top-level members
   */
  public LedgerExtras without(String name) {
    TreeMap<String, Map<String, RawJson>> s = new TreeMap<>(CodePoints.ORDER);
    s.putAll(servers);
    s.remove(name);
    TreeMap<String, SortedMap<String, Map<String, RawJson>>> i = new TreeMap<>(CodePoints.ORDER);
    i.putAll(identities);
    i.remove(name);
    return new LedgerExtras(top, s, i);
  }
}
