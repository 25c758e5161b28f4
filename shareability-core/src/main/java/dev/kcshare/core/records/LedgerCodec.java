package dev.kcshare.core.records;

import dev.kcshare.core.json.RawJson;
import dev.kcshare.core.json.internal.CodePoints;
import dev.kcshare.core.json.internal.Values;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
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
   *
   * @param root the parsed document, or null
   * @return the records, markers and unknown members read, and what was dropped
   */
  public static LedgerLoad decode(@Nullable Object root) {
    return Tolerant.decode(
        notes -> {
          Decoder decoder = decoder();
          RecordDecoder.feed(root, decoder);
          LedgerLoad load = decoder.finish();
          notes.addAll(load.dropped());
          return new LedgerLoad(
              load.servers(), load.cleared(), notes, load.refusal(), load.extras());
        },
        notes -> new LedgerLoad(new TreeMap<>(), new TreeMap<>(), notes));
  }

  /**
   * A decoder to feed a document's top level to, member by member ({@link Decoder}).
   *
   * @return a new decoder
   */
  public static Decoder decoder() {
    return new Decoder();
  }

  /**
   * Decodes a ledger document handed over member by member, so a large file is never held as one
   * tree: the members of {@code servers} come one server at a time ({@link #entry}), the other
   * top-level members whole ({@link #member}). The outcome, {@link #finish()}, is exactly {@link
   * LedgerCodec#decode} of the same document. Feeding it never throws; not thread-safe.
   */
  public static final class Decoder implements RecordDecoder<LedgerLoad> {
    private boolean notAnObject;
    private @Nullable Object root;
    private final Map<String, @Nullable Object> members = new HashMap<>();
    private boolean serversIsObject;
    private final LinkedHashMap<Object, Slot> servers = new LinkedHashMap<>();

    /** One member of {@code servers} as decoded, in file order. */
    private record Slot(
        @Nullable String name,
        @Nullable TreeMap<String, HazardRecord> identities,
        List<Dropped> notes,
        Map<String, RawJson> extras,
        Map<String, Map<String, RawJson>> identityExtras) {
      Slot(
          @Nullable String name,
          @Nullable TreeMap<String, HazardRecord> identities,
          List<Dropped> notes) {
        this(name, identities, notes, Map.of(), Map.of());
      }
    }

    private Decoder() {}

    /** Whether {@code member}'s object value is fed entry by entry: {@code servers}. */
    @Override
    public boolean streams(String member) {
      return "servers".equals(member);
    }

    /** A top-level member fed whole (a repeated member keeps its last value). */
    @Override
    public void member(String name, @Nullable Object value) {
      members.put(name, value);
      if ("servers".equals(name)) {
        serversIsObject = false;
        servers.clear();
      }
    }

    /** The object value of {@code servers} begins; a repeated {@code servers} starts over. */
    @Override
    public void begin(String member) {
      members.remove(member);
      serversIsObject = true;
      servers.clear();
    }

    /** One member of {@code servers}; a repeated name keeps its first place and last value. */
    @Override
    public void entry(@Nullable Object key, @Nullable Object value) {
      List<Dropped> notes = new ArrayList<>(0);
      if (!(key instanceof String name)) {
        notes.add(new Dropped("servers", "non-string member name; skipped"));
        servers.put(new Object(), new Slot(null, null, notes));
        return;
      }
      String where = "servers/" + Values.name(name);
      if (name.isEmpty()) {
        notes.add(new Dropped(where, "empty server name; skipped"));
        servers.put(name, new Slot(null, null, notes));
        return;
      }
      if (!(value instanceof Map<?, ?> server)) {
        notes.add(new Dropped(where, "is " + Values.describe(value) + ", not an object"));
        servers.put(name, new Slot(null, null, notes));
        return;
      }
      Map<String, Map<String, RawJson>> identityExtras = new HashMap<>();
      TreeMap<String, HazardRecord> identities =
          Tolerant.decode(
              n -> readServer(server, where, n, identityExtras),
              n -> {
                n.add(new Dropped(where, "unexpected value; skipped"));
                return new TreeMap<>(CodePoints.ORDER);
              },
              notes);
      servers.put(
          name,
          new Slot(
              name, identities, notes, unknownMembers(server, SERVER_MEMBERS), identityExtras));
    }

    /** The document's value is not an object. */
    @Override
    public void root(@Nullable Object value) {
      notAnObject = true;
      root = value;
    }

    /** What was fed, decoded: as {@link LedgerCodec#decode} of the whole document. */
    @Override
    public LedgerLoad finish() {
      return Tolerant.decode(
          this::finish, notes -> new LedgerLoad(new TreeMap<>(), new TreeMap<>(), notes));
    }

    private LedgerLoad finish(List<Dropped> notes) {
      TreeMap<String, SortedMap<String, HazardRecord>> out = new TreeMap<>(CodePoints.ORDER);
      TreeMap<String, Double> cleared = new TreeMap<>(CodePoints.ORDER);
      if (notAnObject) {
        notes.add(
            new Dropped("", "top level is " + Values.describe(root) + ", not an object; ignored"));
        return new LedgerLoad(out, cleared, notes);
      }
      boolean hasSchema = members.containsKey("schema");
      Object schema = members.get("schema");
      if (!Values.isOne(schema)) {
        String what = hasSchema ? "is " + Values.describe(schema) + ", not 1" : "is missing";
        notes.add(new Dropped("schema", what + "; the whole file is ignored"));
        String refusal =
            Values.isIntegerAbove(schema, 1)
                ? "was written by a newer version (schema " + Values.plain(schema) + ")"
                : "is not a ledger this version understands (schema " + what + ")";
        return new LedgerLoad(out, cleared, notes, refusal);
      }
      if (members.containsKey("cleared")) {
        readCleared(members.get("cleared"), cleared, notes);
      }
      String refusal = null;
      if (!serversIsObject) {
        Object serversValue = members.get("servers");
        String what =
            members.containsKey("servers")
                ? "is " + Values.describe(serversValue) + ", not an object"
                : "is missing";
        notes.add(new Dropped("servers", what + "; nothing observed"));
        if (members.containsKey("servers")) {
          refusal = "is not a ledger this version understands (servers " + what + ")";
        }
        return new LedgerLoad(out, cleared, notes, refusal);
      }
      TreeMap<String, Map<String, RawJson>> serverExtras = new TreeMap<>(CodePoints.ORDER);
      TreeMap<String, SortedMap<String, Map<String, RawJson>>> identityExtras =
          new TreeMap<>(CodePoints.ORDER);
      for (Slot slot : servers.values()) {
        notes.addAll(slot.notes());
        TreeMap<String, HazardRecord> identities = slot.identities();
        String name = slot.name();
        if (identities == null || name == null) {
          continue;
        }
        String where = "servers/" + Values.name(name);
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
          out.put(name, identities);
          if (!slot.extras().isEmpty()) {
            serverExtras.put(name, slot.extras());
          }
          TreeMap<String, Map<String, RawJson>> kept = new TreeMap<>(CodePoints.ORDER);
          slot.identityExtras()
              .forEach(
                  (identity, extra) -> {
                    if (identities.containsKey(identity)) {
                      kept.put(identity, extra);
                    }
                  });
          if (!kept.isEmpty()) {
            identityExtras.put(name, kept);
          }
        }
      }
      Map<String, RawJson> top = new LinkedHashMap<>();
      members.forEach(
          (member, value) -> {
            if (!TOP_MEMBERS.contains(member)) {
              top.put(member, RawJson.of(value));
            }
          });
      return new LedgerLoad(
          out, cleared, notes, null, new LedgerExtras(top, serverExtras, identityExtras));
    }
  }

  private static final java.util.Set<String> TOP_MEMBERS =
      java.util.Set.of("schema", "servers", "cleared");
  private static final java.util.Set<String> SERVER_MEMBERS =
      java.util.Set.of("identities", "codes", "count", "lastSeen");
  private static final java.util.Set<String> RECORD_MEMBERS =
      java.util.Set.of("codes", "count", "lastSeen");

  /** The members of {@code object} not named in {@code known}, as compact text, in file order. */
  private static Map<String, RawJson> unknownMembers(
      Map<?, ?> object, java.util.Set<String> known) {
    Map<String, RawJson> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : object.entrySet()) {
      if (e.getKey() instanceof String member && !known.contains(member)) {
        out.put(member, RawJson.of(e.getValue()));
      }
    }
    return out;
  }

  private static TreeMap<String, HazardRecord> readServer(
      Map<?, ?> server,
      String where,
      List<Dropped> notes,
      Map<String, Map<String, RawJson>> identityExtras) {
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
          Map<String, RawJson> extra = unknownMembers((Map<?, ?>) e.getValue(), RECORD_MEMBERS);
          if (!extra.isEmpty()) {
            identityExtras.put(identity, extra);
          }
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

  /**
   * The document a cross-process clear writes (docs/design.md#clearing): the file as read without
   * any record of {@code name}, and {@code cleared[name]} set to {@link #clearStamp} (stamped even
   * when the file held nothing for the name: a live writer may still hold unflushed records).
   *
   * @param onDisk the file as read under the ledger lock, tolerantly
   * @param name the server to clear, not empty
   * @param now the clear's clock reading, epoch seconds, taken under the lock
   * @return the document to write
   * @throws IllegalArgumentException if {@code name} is empty
   */
  public static Map<String, Object> encodeCleared(LedgerLoad onDisk, String name, double now) {
    if (name.isEmpty()) {
      throw new IllegalArgumentException("server name must not be empty");
    }
    TreeMap<String, SortedMap<String, HazardRecord>> servers = new TreeMap<>(CodePoints.ORDER);
    servers.putAll(onDisk.servers());
    servers.remove(name);
    TreeMap<String, Double> cleared = new TreeMap<>(CodePoints.ORDER);
    cleared.putAll(onDisk.cleared());
    cleared.put(name, clearStamp(onDisk, name, now));
    return encode(servers, cleared, onDisk.extras().without(name));
  }

  /**
   * The time a clear of {@code name} is stamped with (docs/design.md#clearing): the latest of the
   * clock reading {@code now} (0.0 when not finite), the file's existing marker for the name, and
   * the {@code lastSeen} of every record the file holds for it. A clear removes everything the file
   * holds for the name, so its stamp is never earlier than any of it, whatever clock wrote it: a
   * writer then drops, by their own times, exactly the unwritten observations the clear covers.
   *
   * @param onDisk the file as read under the ledger lock
   * @param name the server being cleared
   * @param now the clearing process's clock, read under the lock
   * @return the stamp, finite
   */
  public static double clearStamp(LedgerLoad onDisk, String name, double now) {
    double stamp = Double.isFinite(now) ? now : 0.0;
    @Nullable Double existing = onDisk.cleared().get(name);
    if (existing != null && Double.isFinite(existing)) {
      stamp = Math.max(stamp, existing);
    }
    @Nullable SortedMap<String, HazardRecord> records = onDisk.servers().get(name);
    if (records != null) {
      for (HazardRecord record : records.values()) {
        if (Double.isFinite(record.lastSeen())) {
          stamp = Math.max(stamp, record.lastSeen());
        }
      }
    }
    return stamp;
  }

  /**
   * Encodes a snapshot with its clear markers ({@link #encode(Map, Map)}).
   *
   * @param snapshot the records and markers to write
   * @return the document as plain values
   */
  public static Map<String, Object> encode(LedgerSnapshot snapshot) {
    return encode(snapshot.servers(), snapshot.cleared());
  }

  /**
   * Encodes a snapshot with its clear markers, writing back the members of the file just read that
   * this version does not know ({@link #encode(Map, Map, LedgerExtras)}).
   *
   * @param snapshot the records and markers to write
   * @param extras the unknown members of the file just read
   * @return the document as plain values
   */
  public static Map<String, Object> encode(LedgerSnapshot snapshot, LedgerExtras extras) {
    return encode(snapshot.servers(), snapshot.cleared(), extras);
  }

  /**
   * {@link #encode(Map, Map, LedgerExtras)} with nothing unknown to write back.
   *
   * @param servers name → launch identity → record
   * @param cleared clear markers: name → epoch seconds
   * @return the document as plain values
   */
  public static Map<String, Object> encode(
      Map<String, ? extends Map<String, HazardRecord>> servers, Map<String, Double> cleared) {
    return encode(servers, cleared, LedgerExtras.NONE);
  }

  /**
   * The ledger document as plain values in the member order of docs/design.md#writing-files: {@code
   * schema}, {@code servers}, then {@code cleared} when non-empty. Names and identities are written
   * in code-point order; a server appears only if some identity has a code; each server entry
   * carries {@code identities} and the flat union of {@link LedgerUnion} ({@code codes} sorted
   * union, {@code count} exact sum, {@code lastSeen} max). Identity counts are {@link Long}, the
   * flat count a {@link Long} or, beyond 2^63−1, a {@link java.math.BigInteger}; times are {@link
   * Double} (non-finite → 0.0). Markers with an empty name or a non-finite time are left out. The
   * members in {@code extras} follow the known ones of the server entry, identity record or top
   * level they were read from, when that is written at all.
   *
   * @param servers name → launch identity → record
   * @param cleared clear markers: name → epoch seconds
   * @param extras the unknown members to write back ({@link LedgerExtras#NONE} for none)
   * @return the document as a new map of plain values
   */
  public static Map<String, Object> encode(
      Map<String, ? extends Map<String, HazardRecord>> servers,
      Map<String, Double> cleared,
      LedgerExtras extras) {
    Map<String, Object> document = new LinkedHashMap<>();
    document.put("schema", SCHEMA);
    Map<String, Object> serversOut = new LinkedHashMap<>();
    for (Map.Entry<String, ? extends Map<String, HazardRecord>> server :
        sorted(servers).entrySet()) {
      if (server.getKey().isEmpty()) {
        continue;
      }
      Map<String, Object> identities = new LinkedHashMap<>();
      List<HazardRecord> written = new ArrayList<>();
      for (Map.Entry<String, HazardRecord> identity : sorted(server.getValue()).entrySet()) {
        HazardRecord record = identity.getValue();
        int mask = record.mask();
        if (mask <= 0) {
          continue;
        }
        Map<String, Object> value = recordValue(mask, record.count(), finite(record.lastSeen()));
        @Nullable SortedMap<String, Map<String, RawJson>> ids =
            extras.identities().get(server.getKey());
        @Nullable Map<String, RawJson> extra = ids == null ? null : ids.get(identity.getKey());
        if (extra != null) {
          extra.forEach((member, raw) -> value.putIfAbsent(member, raw));
        }
        identities.put(identity.getKey(), value);
        written.add(record);
      }
      if (written.isEmpty()) {
        continue;
      }
      LedgerUnion union = LedgerUnion.of(written);
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("identities", identities);
      entry.put("codes", new ArrayList<>(union.codes()));
      entry.put("count", union.countValue());
      entry.put("lastSeen", union.lastSeen());
      @Nullable Map<String, RawJson> extra = extras.servers().get(server.getKey());
      if (extra != null) {
        extra.forEach((member, raw) -> entry.putIfAbsent(member, raw));
      }
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
    extras.top().forEach((member, raw) -> document.putIfAbsent(member, raw));
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
}
