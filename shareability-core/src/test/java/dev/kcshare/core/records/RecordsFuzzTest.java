package dev.kcshare.core.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.kcshare.core.json.JsonWriter;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seeded random documents for both record decoders: mostly well-shaped files with random values
 * substituted at every member, deep nesting (up to 2,000 levels), non-finite doubles and huge
 * integers. The decoders must never throw and never produce a record or row that breaks the
 * format's invariants; re-encoding must be stable. Replay one case with {@code -Dkcshare.seed=N}.
 */
final class RecordsFuzzTest {
  private static final int ROUNDS = 250;
  private static final int MAX_DEEP = 2_000;

  private static final String[] KEYS = {
    "schema",
    "servers",
    "cleared",
    "identities",
    "codes",
    "count",
    "lastSeen",
    "entries",
    "applied",
    "ran",
    "callerSensitive",
    "reasons",
    "evaluatedAt",
    "identity",
    "reportedVersion",
    "era",
    "handshake",
    "capabilities",
    "protocolVersion",
    "serverInfo",
    "toolAnnotations",
    "hasTools",
    "",
    "x",
    "files-mcp",
    "\u0000",
    "\ud83d\ude00",
    "\ufb01"
  };

  private static final String[] STRINGS = {
    HazardCodes.UNROUTABLE_SERVER_REQUEST,
    HazardCodes.UNATTRIBUTABLE_NOTIFICATION,
    "unroutable_server_request ",
    "",
    "modern",
    "legacy",
    "1",
    "true",
    "a\u0000b\u0000c\u00002",
    "a\u0000b\u0000c\u00001",
    "\u00002",
    "2",
    "x\ud800y",
    "\u001b[31m\n",
    "0.6.3",
  };

  static LongStream seeds() {
    long base = Long.getLong("kcshare.seed", 20261130L);
    return LongStream.range(0, 20).map(i -> base + i);
  }

  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void ledgerDecoderNeverThrowsAndKeepsInvariants(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    int records = 0;
    int markers = 0;
    for (int round = 0; round < ROUNDS; round++) {
      Object document = new Gen(random).ledger();
      String replay = "seed=" + seed + " round=" + round;
      LedgerLoad load = null;
      try {
        load = LedgerCodec.decode(document);
      } catch (Throwable e) {
        fail(replay + ": decode threw", e);
      }
      checkLedger(load, replay);
      records += load.servers().values().stream().mapToInt(Map::size).sum();
      markers += load.cleared().size();
      Map<String, Object> encoded = LedgerCodec.encode(load.servers(), load.cleared());
      String text = JsonWriter.pretty(encoded);
      LedgerLoad again = LedgerCodec.decode(encoded);
      assertThat(again.dropped()).as(replay).isEmpty();
      assertThat(again.servers()).as(replay).isEqualTo(load.servers());
      assertThat(again.cleared()).as(replay).isEqualTo(load.cleared());
      assertThat(JsonWriter.pretty(LedgerCodec.encode(again.servers(), again.cleared())))
          .as(replay)
          .isEqualTo(text);
    }
    // The generator must reach the interesting paths, or the invariants above prove nothing.
    assertThat(records).as("records decoded, seed=%d", seed).isGreaterThan(ROUNDS / 4);
    assertThat(markers).as("markers decoded, seed=%d", seed).isGreaterThan(ROUNDS / 10);
  }

  private static void checkLedger(LedgerLoad load, String replay) {
    assertThat(load.dropped())
        .as(replay)
        .noneSatisfy(d -> assertThat(d.why()).startsWith("unexpected value"));
    for (Map.Entry<String, SortedMap<String, HazardRecord>> server : load.servers().entrySet()) {
      assertThat(server.getKey()).as(replay).isNotEmpty();
      assertThat(server.getValue()).as(replay).isNotEmpty();
      Double marker = load.cleared().get(server.getKey());
      for (HazardRecord record : server.getValue().values()) {
        assertThat(record.codes()).as(replay).isNotEmpty();
        assertThat(record.codes()).as(replay).allMatch(HazardCodes::isKnown);
        assertThat(record.count()).as(replay).isNotNegative();
        assertThat(Double.isFinite(record.lastSeen())).as(replay).isTrue();
        if (marker != null) {
          assertThat(record.lastSeen()).as(replay).isGreaterThan(marker);
        }
      }
    }
    for (Map.Entry<String, Double> marker : load.cleared().entrySet()) {
      assertThat(marker.getKey()).as(replay).isNotEmpty();
      assertThat(Double.isFinite(marker.getValue())).as(replay).isTrue();
    }
  }

  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void cacheDecoderNeverThrowsAndKeepsInvariants(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    int rows = 0;
    int handshakes = 0;
    for (int round = 0; round < ROUNDS; round++) {
      Object document = new Gen(random).cache();
      String replay = "seed=" + seed + " round=" + round;
      CacheLoad load = null;
      try {
        load = CacheCodec.decode(document);
      } catch (Throwable e) {
        fail(replay + ": decode threw", e);
      }
      checkCache(load, replay);
      rows += load.rows().size();
      for (CacheRow row : load.rows().values()) {
        handshakes += row.handshake() == null ? 0 : 1;
      }
      // Compared as text: rows may hold deeply nested server objects, whose equals would recurse.
      // (Compact, not pretty: pretty indentation is quadratic in depth.)
      String text = JsonWriter.compact(CacheCodec.encode(load.rows(), load.applied()));
      CacheLoad again = CacheCodec.decode(CacheCodec.encode(load.rows(), load.applied()));
      assertThat(again.dropped()).as(replay).isEmpty();
      assertThat(JsonWriter.compact(CacheCodec.encode(again.rows(), again.applied())))
          .as(replay)
          .isEqualTo(text);
    }
    // The generator must reach the interesting paths, or the invariants above prove nothing.
    assertThat(rows).as("rows decoded, seed=%d", seed).isGreaterThan(ROUNDS / 2);
    assertThat(handshakes).as("handshakes decoded, seed=%d", seed).isGreaterThan(ROUNDS / 5);
  }

  private static void checkCache(CacheLoad load, String replay) {
    assertThat(load.dropped())
        .as(replay)
        .noneSatisfy(d -> assertThat(d.why()).startsWith("unexpected value"));
    for (Map.Entry<String, CacheRow> entry : load.rows().entrySet()) {
      CacheRow row = entry.getValue();
      assertThat(entry.getKey()).as(replay).isNotEmpty();
      assertThat(ExecutionIdentity.hasCurrentSchema(row.identity())).as(replay).isTrue();
      assertThat((Object) row.ran()).as(replay).isInstanceOf(Boolean.class);
      for (Object reason : row.reasons()) {
        assertThat(reason).as(replay).isInstanceOf(String.class);
      }
      assertThat(Double.isFinite(row.evaluatedAt())).as(replay).isTrue();
      assertThat(row.reportedVersion()).as(replay).isNotNull();
      assertThat(row.era()).as(replay).isNotNull();
      StoredHandshake handshake = row.handshake();
      if (handshake != null) {
        assertThat(handshake.protocolVersion()).as(replay).isNotNull();
        assertThat(handshake.serverInfo()).as(replay).isNotNull();
        for (Object annotation : handshake.toolAnnotations()) {
          assertThat(annotation).as(replay).isInstanceOf(Map.class);
        }
      }
    }
    for (Object name : load.applied()) {
      assertThat(name).as(replay).isInstanceOf(String.class);
      assertThat((String) name).as(replay).isNotEmpty();
    }
  }

  /** Random JSON-ish values, biased towards the shapes of the two record files. */
  private static final class Gen {
    private final SplittableRandom random;

    Gen(SplittableRandom random) {
      this.random = random;
    }

    private boolean chance(double p) {
      return random.nextDouble() < p;
    }

    /** The shaped value most of the time, any random value otherwise. */
    private Object maybe(Object shaped) {
      return chance(0.12) ? any(0) : shaped;
    }

    Object ledger() {
      if (chance(0.05)) {
        return any(0);
      }
      Map<Object, Object> doc = new LinkedHashMap<>();
      if (!chance(0.05)) {
        doc.put("schema", maybe(pick(1, 1L, 1.0)));
      }
      Map<Object, Object> servers = new LinkedHashMap<>();
      int n = random.nextInt(0, 5);
      for (int i = 0; i < n; i++) {
        Map<Object, Object> server = new LinkedHashMap<>();
        if (!chance(0.2)) {
          Map<Object, Object> identities = new LinkedHashMap<>();
          int m = random.nextInt(0, 4);
          for (int j = 0; j < m; j++) {
            identities.put(string(), maybe(hazardRecord()));
          }
          server.put("identities", maybe(identities));
        }
        server.putAll(hazardRecord());
        extras(server);
        servers.put(name(), maybe(server));
      }
      if (!chance(0.05)) {
        doc.put("servers", maybe(servers));
      }
      if (chance(0.4)) {
        Map<Object, Object> cleared = new LinkedHashMap<>();
        int c = random.nextInt(0, 4);
        for (int i = 0; i < c; i++) {
          cleared.put(name(), maybe(number()));
        }
        doc.put("cleared", maybe(cleared));
      }
      extras(doc);
      return doc;
    }

    private Map<Object, Object> hazardRecord() {
      Map<Object, Object> record = new LinkedHashMap<>();
      if (!chance(0.1)) {
        List<Object> codes = new ArrayList<>();
        int k = random.nextInt(0, 4);
        for (int i = 0; i < k; i++) {
          codes.add(
              maybe(
                  pick(
                      HazardCodes.UNROUTABLE_SERVER_REQUEST,
                      HazardCodes.UNATTRIBUTABLE_NOTIFICATION)));
        }
        record.put("codes", maybe(codes));
      }
      if (!chance(0.1)) {
        record.put("count", maybe(random.nextLong(0, 1_000)));
      }
      if (!chance(0.1)) {
        record.put("lastSeen", maybe(random.nextDouble() * 2e9));
      }
      extras(record);
      return record;
    }

    Object cache() {
      if (chance(0.05)) {
        return any(0);
      }
      Map<Object, Object> doc = new LinkedHashMap<>();
      Map<Object, Object> entries = new LinkedHashMap<>();
      int n = random.nextInt(0, 5);
      for (int i = 0; i < n; i++) {
        entries.put(name(), maybe(cacheRow()));
      }
      if (!chance(0.05)) {
        doc.put("entries", maybe(entries));
      }
      if (!chance(0.1)) {
        List<Object> applied = new ArrayList<>();
        int k = random.nextInt(0, 4);
        for (int i = 0; i < k; i++) {
          applied.add(maybe(name()));
        }
        doc.put("applied", maybe(applied));
      }
      extras(doc);
      return doc;
    }

    private Map<Object, Object> cacheRow() {
      Map<Object, Object> row = new LinkedHashMap<>();
      putMostly(row, "ran", random.nextBoolean());
      putMostly(row, "callerSensitive", random.nextBoolean());
      List<Object> reasons = new ArrayList<>();
      if (random.nextBoolean()) {
        reasons.add(maybe("handshake_not_reproducible"));
      }
      putMostly(row, "reasons", reasons);
      putMostly(row, "evaluatedAt", random.nextDouble() * 2e9);
      putMostly(
          row,
          "identity",
          pick("a\u0000b\u0000c\u00002", "a\u0000b\u0000c\u0000d\u00002", "\u00002"));
      putMostly(row, "reportedVersion", pick("0.6.3", "", "1.0"));
      putMostly(row, "era", pick("legacy", "modern"));
      if (chance(0.8)) {
        Map<Object, Object> handshake = new LinkedHashMap<>();
        putMostly(handshake, "capabilities", chance(0.2) ? null : serverObject());
        putMostly(handshake, "protocolVersion", "2024-11-05");
        putMostly(handshake, "serverInfo", serverObject());
        List<Object> annotations = new ArrayList<>();
        int k = random.nextInt(0, 3);
        for (int i = 0; i < k; i++) {
          annotations.add(maybe(serverObject()));
        }
        putMostly(handshake, "toolAnnotations", annotations);
        putMostly(handshake, "hasTools", random.nextBoolean());
        extras(handshake);
        row.put("handshake", maybe(handshake));
      }
      extras(row);
      return row;
    }

    private void putMostly(Map<Object, Object> map, String key, Object value) {
      if (!chance(0.08)) {
        map.put(key, maybe(value));
      }
    }

    /** A server-chosen object: random content, sometimes nested very deep. */
    private Object serverObject() {
      Map<Object, Object> object = new LinkedHashMap<>();
      int k = random.nextInt(0, 4);
      for (int i = 0; i < k; i++) {
        object.put(string(), any(1));
      }
      if (chance(0.08)) {
        object.put(string(), deep());
      }
      return object;
    }

    private void extras(Map<Object, Object> map) {
      if (chance(0.15)) {
        map.put(key(), any(1));
      }
      if (chance(0.03)) {
        map.put(random.nextInt(), any(2));
      }
    }

    /** A chain of objects and arrays up to {@link #MAX_DEEP} levels. */
    private Object deep() {
      int depth = random.nextInt(1, MAX_DEEP + 1);
      Object value = any(3);
      for (int i = 0; i < depth; i++) {
        if (random.nextBoolean()) {
          Map<Object, Object> map = new LinkedHashMap<>();
          map.put(key(), value);
          if (chance(0.3)) {
            map.put(key(), scalar());
          }
          value = map;
        } else {
          List<Object> list = new ArrayList<>();
          list.add(value);
          value = list;
        }
      }
      return value;
    }

    private Object any(int depth) {
      int kind = random.nextInt(depth >= 3 ? 6 : 9);
      return switch (kind) {
        case 6 -> {
          List<Object> list = new ArrayList<>();
          int n = random.nextInt(0, 4);
          for (int i = 0; i < n; i++) {
            list.add(any(depth + 1));
          }
          yield list;
        }
        case 7 -> {
          Map<Object, Object> map = chance(0.1) ? new HashMap<>() : new LinkedHashMap<>();
          int n = random.nextInt(0, 4);
          for (int i = 0; i < n; i++) {
            map.put(key(), any(depth + 1));
          }
          yield map;
        }
        case 8 -> chance(0.3) ? deep() : scalar();
        default -> scalar();
      };
    }

    private Object scalar() {
      return switch (random.nextInt(6)) {
        case 0 -> nullValue();
        case 1 -> random.nextBoolean();
        case 2, 3 -> number();
        default -> string();
      };
    }

    private static Object nullValue() {
      return null;
    }

    private Object number() {
      return switch (random.nextInt(10)) {
        case 0 -> random.nextInt(-3, 4);
        case 1 -> random.nextLong();
        case 2 -> pick(Long.MAX_VALUE, Long.MIN_VALUE, 0L, 1L, -1L);
        case 3 ->
            BigInteger.TEN.pow(random.nextInt(19, 420)).multiply(BigInteger.valueOf(pick(1, -1)));
        case 4 -> pick(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY);
        case 5 -> pick(1.0, 1.5, -0.0, 0.0, 2.0, 4.0, 1e308);
        case 6 -> random.nextDouble() * 2e9;
        case 7 -> random.nextInt();
        default -> random.nextDouble(-1e6, 1e6);
      };
    }

    private String name() {
      return chance(0.7) ? pick("files-mcp", "a", "b", "\ud83d\ude00", "") : string();
    }

    private String key() {
      return KEYS[random.nextInt(KEYS.length)];
    }

    private String string() {
      if (chance(0.6)) {
        return STRINGS[random.nextInt(STRINGS.length)];
      }
      StringBuilder s = new StringBuilder();
      int n = random.nextInt(0, 12);
      for (int i = 0; i < n; i++) {
        s.append((char) random.nextInt(0, 0x10000));
      }
      return s.toString();
    }

    @SafeVarargs
    private <T> T pick(T... options) {
      return options[random.nextInt(options.length)];
    }
  }
}
