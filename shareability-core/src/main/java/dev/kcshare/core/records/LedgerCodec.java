package dev.kcshare.core.records;

import dev.kcshare.core.json.CodePoints;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Reads and writes the observed-hazard ledger document ({@code observed-hazards.json}, schema 1) as
 * plain JSON values (docs/formats.md#the-hazard-ledger--observed-hazardsjson). The caller parses
 * and serialises the text.
 *
 * <p>Reading is tolerant and never throws: every malformed part degrades to "nothing observed" for
 * that part — never to "safe" — and is reported as a {@link Dropped} note. Writing emits both the
 * authoritative {@code identities} shape and the flat union older readers use.
 */
public final class LedgerCodec {
  /**
   * The ledger's schema, deliberately never bumped
   * (docs/formats.md#the-hazard-ledger--observed-hazardsjson).
   */
  public static final int SCHEMA = 1;

  private LedgerCodec() {}

  /**
   * Decodes a parsed ledger document per docs/design.md#read-tolerance. A {@code null} or
   * non-object root is an empty ledger. Never throws.
   */
  public static LedgerLoad decode(@Nullable Object root) {
    return Dropped.tolerantly(
        notes -> decode(root, notes),
        notes -> new LedgerLoad(new TreeMap<>(), new TreeMap<>(), notes));
  }

  private static LedgerLoad decode(@Nullable Object root, List<Dropped> notes) {
    TreeMap<String, SortedMap<String, HazardRecord>> servers = new TreeMap<>(CodePoints.ORDER);
    TreeMap<String, Double> cleared = new TreeMap<>(CodePoints.ORDER);
    if (!(root instanceof Map<?, ?> top)) {
      notes.add(
          new Dropped("", "top level is " + Values.describe(root) + ", not an object; ignored"));
      return new LedgerLoad(servers, cleared, notes);
    }
    Object schema = top.get("schema");
    if (!Values.isOne(schema)) {
      String what =
          top.containsKey("schema") ? "is " + Values.describe(schema) + ", not 1" : "is missing";
      notes.add(new Dropped("schema", what + "; the whole file is ignored"));
      return new LedgerLoad(servers, cleared, notes);
    }
    if (top.containsKey("cleared")) {
      readCleared(top.get("cleared"), cleared, notes);
    }
    Object serversValue = top.get("servers");
    if (!(serversValue instanceof Map<?, ?> serverMap)) {
      String what =
          top.containsKey("servers")
              ? "is " + Values.describe(serversValue) + ", not an object"
              : "is missing";
      notes.add(new Dropped("servers", what + "; nothing observed"));
      return new LedgerLoad(servers, cleared, notes);
    }
    for (Map.Entry<?, ?> entry : serverMap.entrySet()) {
      if (!(entry.getKey() instanceof String name)) {
        notes.add(new Dropped("servers", "non-string member name; skipped"));
        continue;
      }
      String where = "servers/" + Values.name(name);
      if (name.isEmpty()) {
        notes.add(new Dropped(where, "empty server name; skipped"));
        continue;
      }
      if (!(entry.getValue() instanceof Map<?, ?> server)) {
        notes.add(
            new Dropped(where, "is " + Values.describe(entry.getValue()) + ", not an object"));
        continue;
      }
      TreeMap<String, HazardRecord> identities = readServer(server, where, notes);
      Double marker = cleared.get(name);
      if (marker != null) {
        identities
            .entrySet()
            .removeIf(
                e -> {
                  boolean drop = e.getValue().lastSeen() <= marker;
                  if (drop) {
                    notes.add(
                        new Dropped(
                            where + "/identities/" + Values.identity(e.getKey()),
                            "last seen at or before the clear marker "
                                + BigDecimal.valueOf(marker).toPlainString()
                                + "; dropped"));
                  }
                  return drop;
                });
      }
      if (identities.isEmpty()) {
        notes.add(new Dropped(where, "no identity record left; server absent"));
      } else {
        servers.put(name, identities);
      }
    }
    return new LedgerLoad(servers, cleared, notes);
  }

  private static TreeMap<String, HazardRecord> readServer(
      Map<?, ?> server, String where, List<Dropped> notes) {
    TreeMap<String, HazardRecord> identities = new TreeMap<>(CodePoints.ORDER);
    Object identitiesValue = server.get("identities");
    if (identitiesValue instanceof Map<?, ?> identityMap) {
      // Authoritative, even when empty: the flat fields are only a derived union.
      for (Map.Entry<?, ?> e : identityMap.entrySet()) {
        if (!(e.getKey() instanceof String identity)) {
          notes.add(new Dropped(where + "/identities", "non-string member name; skipped"));
          continue;
        }
        String recordWhere = where + "/identities/" + Values.identity(identity);
        HazardRecord record = readRecord(e.getValue(), recordWhere, notes);
        if (record != null) {
          identities.put(identity, record);
        }
      }
    } else {
      // Legacy shape: the entry's flat fields are one record under the empty identity.
      HazardRecord record = readRecord(server, where + " (flat fields)", notes);
      if (record != null) {
        identities.put("", record);
      }
    }
    return identities;
  }

  private static @Nullable HazardRecord readRecord(
      @Nullable Object value, String where, List<Dropped> notes) {
    if (!(value instanceof Map<?, ?> record)) {
      notes.add(new Dropped(where, "is " + Values.describe(value) + ", not an object; skipped"));
      return null;
    }
    Object codesValue = record.get("codes");
    if (!(codesValue instanceof List<?> codes)) {
      String what =
          record.containsKey("codes")
              ? "codes is " + Values.describe(codesValue) + ", not an array"
              : "codes is missing";
      notes.add(new Dropped(where, what + "; skipped"));
      return null;
    }
    int mask = 0;
    for (int i = 0; i < codes.size(); i++) {
      Object code = codes.get(i);
      int bit = code instanceof String s ? HazardCodes.bit(s) : 0;
      if (bit == 0) {
        notes.add(
            new Dropped(
                where + "/codes/" + i, Values.describe(code) + " is not a known hazard code"));
      }
      mask |= bit;
    }
    if (mask == 0) {
      notes.add(new Dropped(where, "no known hazard code; skipped"));
      return null;
    }
    Object countValue = record.get("count");
    long count = Values.nonNegativeLong(countValue);
    if (count < 0) {
      count = Integer.bitCount(mask);
      notes.add(
          new Dropped(
              where + "/count",
              describeMember(record, "count", countValue)
                  + " is not a non-negative integer; using "
                  + count));
    }
    Object lastSeenValue = record.get("lastSeen");
    double lastSeen = Values.finiteOr(lastSeenValue, 0.0);
    if (!Values.isFiniteNumber(lastSeenValue)) {
      notes.add(
          new Dropped(
              where + "/lastSeen",
              describeMember(record, "lastSeen", lastSeenValue)
                  + " is not a finite number; using 0.0"));
    }
    return HazardRecord.ofMask(mask, count, lastSeen);
  }

  private static void readCleared(
      @Nullable Object value, Map<String, Double> cleared, List<Dropped> notes) {
    if (!(value instanceof Map<?, ?> map)) {
      notes.add(
          new Dropped("cleared", "is " + Values.describe(value) + ", not an object; ignored"));
      return;
    }
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (!(e.getKey() instanceof String name) || name.isEmpty()) {
        notes.add(new Dropped("cleared", "empty or non-string server name; ignored"));
        continue;
      }
      if (!Values.isFiniteNumber(e.getValue())) {
        notes.add(
            new Dropped(
                "cleared/" + Values.name(name),
                Values.describe(e.getValue()) + " is not a finite number; ignored"));
        continue;
      }
      cleared.put(name, ((Number) e.getValue()).doubleValue());
    }
  }

  private static String describeMember(Map<?, ?> object, String member, @Nullable Object value) {
    return object.containsKey(member) ? Values.describe(value) : "missing";
  }

  /** Encodes a snapshot with its clear markers ({@link #encode(Map, Map)}). */
  public static Map<String, Object> encode(LedgerSnapshot snapshot) {
    return encode(snapshot.servers(), snapshot.cleared());
  }

  /**
   * The ledger document as plain values in the member order of docs/design.md#writing-files: {@code
   * schema}, {@code servers}, then {@code cleared} when non-empty. Names and identities are written
   * in code-point order; a server appears only if some identity has a code; each server entry
   * carries {@code identities} and the flat union ({@code codes} sorted union, {@code count} sum,
   * {@code lastSeen} max or 0.0). Counts are {@link Long}, times {@link Double} (non-finite → 0.0).
   * Markers with an empty name or a non-finite time are left out.
   */
  public static Map<String, Object> encode(
      Map<String, ? extends Map<String, HazardRecord>> servers, Map<String, Double> cleared) {
    Map<String, Object> document = new LinkedHashMap<>();
    document.put("schema", SCHEMA);
    Map<String, Object> serversOut = new LinkedHashMap<>();
    for (Map.Entry<String, ? extends Map<String, HazardRecord>> server :
        sorted(servers).entrySet()) {
      if (server.getKey().isEmpty()) {
        continue;
      }
      Map<String, Object> identities = new LinkedHashMap<>();
      int unionMask = 0;
      long countSum = 0;
      double lastSeenMax = 0.0;
      boolean any = false;
      for (Map.Entry<String, HazardRecord> identity : sorted(server.getValue()).entrySet()) {
        HazardRecord record = identity.getValue();
        int mask = record.mask();
        if (mask <= 0) {
          continue;
        }
        double lastSeen = finite(record.lastSeen());
        identities.put(identity.getKey(), recordValue(mask, record.count(), lastSeen));
        unionMask |= mask;
        countSum = saturatedAdd(countSum, record.count());
        lastSeenMax = any ? Math.max(lastSeenMax, lastSeen) : lastSeen;
        any = true;
      }
      if (!any) {
        continue;
      }
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("identities", identities);
      entry.put("codes", new ArrayList<>(HazardCodes.listOf(unionMask)));
      entry.put("count", countSum);
      entry.put("lastSeen", lastSeenMax);
      serversOut.put(server.getKey(), entry);
    }
    document.put("servers", serversOut);
    Map<String, Object> clearedOut = new LinkedHashMap<>();
    for (Map.Entry<String, Double> marker : sorted(cleared).entrySet()) {
      Double time = marker.getValue();
      if (!marker.getKey().isEmpty() && time != null && Double.isFinite(time)) {
        clearedOut.put(marker.getKey(), time);
      }
    }
    if (!clearedOut.isEmpty()) {
      document.put("cleared", clearedOut);
    }
    return document;
  }

  private static Map<String, Object> recordValue(int mask, long count, double lastSeen) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("codes", new ArrayList<>(HazardCodes.listOf(mask)));
    out.put("count", count);
    out.put("lastSeen", lastSeen);
    return out;
  }

  private static <V> SortedMap<String, V> sorted(Map<String, V> map) {
    if (map instanceof SortedMap<String, V> s && s.comparator() == CodePoints.ORDER) {
      return s;
    }
    TreeMap<String, V> copy = new TreeMap<>(CodePoints.ORDER);
    copy.putAll(map);
    return copy;
  }

  private static double finite(double d) {
    return Double.isFinite(d) ? d : 0.0;
  }

  private static long saturatedAdd(long a, long b) {
    long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }
}
