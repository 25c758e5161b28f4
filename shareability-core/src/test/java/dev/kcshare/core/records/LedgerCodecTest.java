package dev.kcshare.core.records;

import static dev.kcshare.core.records.HazardCodes.UNATTRIBUTABLE_NOTIFICATION;
import static dev.kcshare.core.records.HazardCodes.UNROUTABLE_SERVER_REQUEST;
import static dev.kcshare.core.records.Json.arr;
import static dev.kcshare.core.records.Json.obj;
import static dev.kcshare.core.records.Json.with;
import static dev.kcshare.core.records.Json.without;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kcshare.core.json.JsonWriter;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/design.md#read-tolerance, docs/formats.md#the-hazard-ledger--observed-hazardsjson: the
 * ledger document, read tolerantly and written in both shapes.
 */
final class LedgerCodecTest {
  private static final String OLD = "<cmdhash>\u0000<envhash>\u0000<fp-old>";
  private static final String NEW = "<cmdhash>\u0000<envhash>\u0000<fp-new>";

  /** The example document of docs/formats.md#the-hazard-ledger--observed-hazardsjson. */
  static Map<String, Object> specExample() {
    return obj(
        "schema",
        1,
        "servers",
        obj(
            "files-mcp",
            obj(
                "identities",
                obj(
                    OLD,
                    obj(
                        "codes",
                        arr(UNROUTABLE_SERVER_REQUEST),
                        "count",
                        4,
                        "lastSeen",
                        1712000000.5),
                    NEW,
                    obj(
                        "codes",
                        arr(UNATTRIBUTABLE_NOTIFICATION),
                        "count",
                        1,
                        "lastSeen",
                        1712000300.0)),
                "codes",
                arr(UNATTRIBUTABLE_NOTIFICATION, UNROUTABLE_SERVER_REQUEST),
                "count",
                5,
                "lastSeen",
                1712000300.0)));
  }

  /** A valid one-server, one-identity document with the given identity record. */
  private static Map<String, Object> oneRecord(Object record) {
    return obj("schema", 1, "servers", obj("s", obj("identities", obj("id", record))));
  }

  private static Map<String, Object> validRecord() {
    return obj("codes", arr(UNROUTABLE_SERVER_REQUEST), "count", 3, "lastSeen", 1700.5);
  }

  private static HazardRecord record(long count, double lastSeen, String... codes) {
    return HazardRecord.of(List.of(codes), count, lastSeen);
  }

  // ---- the specification's documents -------------------------------------------------------

  @Test
  void specExampleDecodesFieldByField() {
    LedgerLoad load = LedgerCodec.decode(specExample());
    assertThat(load.dropped()).isEmpty();
    assertThat(load.cleared()).isEmpty();
    assertThat(load.servers()).containsOnlyKeys("files-mcp");
    assertThat(load.servers().get("files-mcp"))
        .containsExactly(
            Map.entry(NEW, record(1, 1712000300.0, UNATTRIBUTABLE_NOTIFICATION)),
            Map.entry(OLD, record(4, 1712000000.5, UNROUTABLE_SERVER_REQUEST)));
  }

  @Test
  void specExampleReEncodesToTheSameDocument() {
    Map<String, Object> encoded = LedgerCodec.encode(snapshotOf(LedgerCodec.decode(specExample())));
    // Field by field, with the writer's types: counts Long, times Double.
    Map<String, Object> expected =
        obj(
            "schema",
            1,
            "servers",
            obj(
                "files-mcp",
                obj(
                    "identities",
                    obj(
                        NEW,
                        obj(
                            "codes",
                            arr(UNATTRIBUTABLE_NOTIFICATION),
                            "count",
                            1L,
                            "lastSeen",
                            1712000300.0),
                        OLD,
                        obj(
                            "codes",
                            arr(UNROUTABLE_SERVER_REQUEST),
                            "count",
                            4L,
                            "lastSeen",
                            1712000000.5)),
                    "codes",
                    arr(UNATTRIBUTABLE_NOTIFICATION, UNROUTABLE_SERVER_REQUEST),
                    "count",
                    5L,
                    "lastSeen",
                    1712000300.0)));
    assertThat(encoded).isEqualTo(expected);
    assertThat(List.copyOf(encoded.keySet())).containsExactly("schema", "servers");
  }

  @Test
  void specExampleIsWrittenInTheFixedFormat() {
    String text =
        JsonWriter.pretty(LedgerCodec.encode(snapshotOf(LedgerCodec.decode(specExample()))));
    assertThat(text)
        .isEqualTo(
            """
            {
              "schema": 1,
              "servers": {
                "files-mcp": {
                  "identities": {
                    "<cmdhash>\\u0000<envhash>\\u0000<fp-new>": {
                      "codes": [
                        "unattributable_notification"
                      ],
                      "count": 1,
                      "lastSeen": 1712000300.0
                    },
                    "<cmdhash>\\u0000<envhash>\\u0000<fp-old>": {
                      "codes": [
                        "unroutable_server_request"
                      ],
                      "count": 4,
                      "lastSeen": 1712000000.5
                    }
                  },
                  "codes": [
                    "unattributable_notification",
                    "unroutable_server_request"
                  ],
                  "count": 5,
                  "lastSeen": 1712000300.0
                }
              }
            }
            """);
  }

  @Test
  void legacyShapeIsAbsorbedUnderTheEmptyIdentity() {
    Map<String, Object> legacy =
        obj(
            "schema",
            1,
            "servers",
            obj(
                "files-mcp",
                obj("codes", arr(UNROUTABLE_SERVER_REQUEST), "count", 2, "lastSeen", 1700.0)));
    LedgerLoad load = LedgerCodec.decode(legacy);
    assertThat(load.dropped()).isEmpty();
    assertThat(load.servers().get("files-mcp"))
        .containsExactly(Map.entry("", record(2, 1700.0, UNROUTABLE_SERVER_REQUEST)));
    // Rewritten in both shapes.
    assertThat(JsonWriter.compact(LedgerCodec.encode(snapshotOf(load))))
        .isEqualTo(
            "{\"schema\":1,\"servers\":{\"files-mcp\":{\"identities\":{\"\":{\"codes\":"
                + "[\"unroutable_server_request\"],\"count\":2,\"lastSeen\":1700.0}},"
                + "\"codes\":[\"unroutable_server_request\"],\"count\":2,\"lastSeen\":1700.0}}}");
  }

  // ---- common rules ------------------------------------------------------------------------

  static Stream<Object> nonObjects() {
    return Stream.of(arr(), arr(specExample()), "x", 1, 1.5, true, BigInteger.TEN.pow(400));
  }

  @ParameterizedTest
  @MethodSource("nonObjects")
  void topLevelNotAnObjectIsEmpty(Object root) {
    LedgerLoad load = LedgerCodec.decode(root);
    assertThat(load.servers()).isEmpty();
    assertThat(load.cleared()).isEmpty();
    assertThat(load.dropped()).singleElement().extracting(Dropped::where).isEqualTo("");
  }

  @Test
  void nullRootIsEmpty() {
    assertThat(LedgerCodec.decode(null).servers()).isEmpty();
  }

  @Test
  void unknownMembersAnywhereAreIgnored() {
    Map<String, Object> doc = specExample();
    doc.put("future", obj("x", 1));
    @SuppressWarnings("unchecked")
    Map<String, Object> server =
        (Map<String, Object>) ((Map<String, Object>) doc.get("servers")).get("files-mcp");
    server.put("extra", arr(1, 2));
    @SuppressWarnings("unchecked")
    Map<String, Object> identities = (Map<String, Object>) server.get("identities");
    @SuppressWarnings("unchecked")
    Map<String, Object> old = (Map<String, Object>) identities.get(OLD);
    old.put("note", "hello");
    LedgerLoad load = LedgerCodec.decode(doc);
    assertThat(load.dropped()).isEmpty();
    assertThat(load.servers()).isEqualTo(LedgerCodec.decode(specExample()).servers());
  }

  // ---- ledger tolerance ------------------------------------------------------------------

  static Stream<Arguments> schemas() {
    return Stream.of(
        Arguments.of(1, true),
        Arguments.of(1L, true),
        Arguments.of(1.0, true),
        Arguments.of(99, false),
        Arguments.of(2, false),
        Arguments.of(0, false),
        Arguments.of("1", false),
        Arguments.of(true, false),
        Arguments.of(1.5, false),
        Arguments.of(Double.NaN, false),
        Arguments.of(Double.POSITIVE_INFINITY, false),
        Arguments.of(BigInteger.TWO.pow(64).add(BigInteger.ONE), false),
        Arguments.of(arr(1), false),
        Arguments.of(obj(), false));
  }

  @ParameterizedTest(name = "schema {0} accepted={1}")
  @MethodSource("schemas")
  void schemaMustBeTheNumberOne(Object schema, boolean accepted) {
    LedgerLoad load = LedgerCodec.decode(with(specExample(), "schema", schema));
    assertThat(load.servers().isEmpty()).isEqualTo(!accepted);
  }

  @Test
  void missingOrNullSchemaIsEmpty() {
    assertThat(LedgerCodec.decode(without(specExample(), "schema")).servers()).isEmpty();
    assertThat(LedgerCodec.decode(with(specExample(), "schema", null)).servers()).isEmpty();
  }

  @Test
  void wrongSchemaAlsoIgnoresTheClearMarkers() {
    Map<String, Object> doc = with(specExample(), "cleared", obj("x", 5.0));
    assertThat(LedgerCodec.decode(with(doc, "schema", 2)).cleared()).isEmpty();
  }

  static Stream<Object> nonObjectMembers() {
    return Stream.of(arr(), "servers", 0, false);
  }

  @ParameterizedTest
  @MethodSource("nonObjectMembers")
  void serversNotAnObjectIsEmpty(Object servers) {
    assertThat(LedgerCodec.decode(with(specExample(), "servers", servers)).servers()).isEmpty();
  }

  @Test
  void serversMissingOrNullIsEmptyButMarkersAreStillRead() {
    Map<String, Object> doc = obj("schema", 1, "cleared", obj("x", 5.0));
    assertThat(LedgerCodec.decode(doc).servers()).isEmpty();
    assertThat(LedgerCodec.decode(doc).cleared()).containsExactly(Map.entry("x", 5.0));
    assertThat(LedgerCodec.decode(with(doc, "servers", null)).servers()).isEmpty();
  }

  @Test
  void serverEntryNotAnObjectOrWithEmptyNameIsSkipped() {
    Map<String, Object> good = obj("identities", obj("id", validRecord()));
    Map<String, Object> doc =
        obj(
            "schema",
            1,
            "servers",
            obj("", good, "a", arr(), "b", "x", "c", null, "d", 7, "ok", good));
    LedgerLoad load = LedgerCodec.decode(doc);
    assertThat(load.servers()).containsOnlyKeys("ok");
    assertThat(load.dropped())
        .extracting(Dropped::where)
        .contains("servers/", "servers/a", "servers/b", "servers/c", "servers/d");
  }

  @Test
  void identitiesObjectIsAuthoritativeOverTheFlatFields() {
    Map<String, Object> server =
        obj(
            "identities",
            obj("id", obj("codes", arr(UNATTRIBUTABLE_NOTIFICATION), "count", 1, "lastSeen", 2.0)),
            "codes",
            arr(UNROUTABLE_SERVER_REQUEST),
            "count",
            9,
            "lastSeen",
            9.0);
    LedgerLoad load = LedgerCodec.decode(obj("schema", 1, "servers", obj("s", server)));
    assertThat(load.servers().get("s"))
        .containsExactly(Map.entry("id", record(1, 2.0, UNATTRIBUTABLE_NOTIFICATION)));
  }

  @Test
  void emptyIdentitiesObjectLoadsNothingEvenWithFlatFields() {
    Map<String, Object> server =
        obj("identities", obj(), "codes", arr(UNROUTABLE_SERVER_REQUEST), "count", 9);
    LedgerLoad load = LedgerCodec.decode(obj("schema", 1, "servers", obj("s", server)));
    assertThat(load.servers()).isEmpty();
    assertThat(load.dropped()).extracting(Dropped::where).contains("servers/s");
  }

  static Stream<Object> nonObjectIdentities() {
    return Stream.of(null, arr(obj("id", 1)), "identities", 3, true);
  }

  @ParameterizedTest
  @MethodSource("nonObjectIdentities")
  void identitiesNotAnObjectFallsBackToTheFlatFields(Object identities) {
    Map<String, Object> server =
        obj(
            "identities",
            identities,
            "codes",
            arr(UNROUTABLE_SERVER_REQUEST),
            "count",
            2,
            "lastSeen",
            3.0);
    LedgerLoad load = LedgerCodec.decode(obj("schema", 1, "servers", obj("s", server)));
    assertThat(load.servers().get("s"))
        .containsExactly(Map.entry("", record(2, 3.0, UNROUTABLE_SERVER_REQUEST)));
  }

  static Stream<Object> nonObjects2() {
    return Stream.of(null, arr(), "x", 1, true);
  }

  @ParameterizedTest
  @MethodSource("nonObjects2")
  void identityValueNotAnObjectIsSkipped(Object value) {
    Map<String, Object> identities = obj("bad", value, "good", validRecord());
    LedgerLoad load =
        LedgerCodec.decode(obj("schema", 1, "servers", obj("s", obj("identities", identities))));
    assertThat(load.servers().get("s")).containsOnlyKeys("good");
  }

  static Stream<Object> nonArrayCodes() {
    return Stream.of(null, obj(), UNROUTABLE_SERVER_REQUEST, 1, true);
  }

  @ParameterizedTest
  @MethodSource("nonArrayCodes")
  void codesNotAnArrayOrMissingSkipsTheIdentity(Object codes) {
    assertThat(LedgerCodec.decode(oneRecord(with(validRecord(), "codes", codes))).servers())
        .isEmpty();
    assertThat(LedgerCodec.decode(oneRecord(without(validRecord(), "codes"))).servers()).isEmpty();
  }

  @Test
  void codesAreFilteredElementWiseAndDeduplicated() {
    Map<String, Object> rec =
        obj(
            "codes",
            arr(
                UNROUTABLE_SERVER_REQUEST,
                "typo_code",
                1,
                null,
                arr(UNATTRIBUTABLE_NOTIFICATION),
                "UNROUTABLE_SERVER_REQUEST",
                UNROUTABLE_SERVER_REQUEST),
            "count",
            7,
            "lastSeen",
            1.0);
    LedgerLoad load = LedgerCodec.decode(oneRecord(rec));
    assertThat(load.servers().get("s"))
        .containsExactly(Map.entry("id", record(7, 1.0, UNROUTABLE_SERVER_REQUEST)));
    assertThat(load.dropped()).hasSize(5);
  }

  @Test
  void identityWithoutASurvivingCodeIsSkippedAndAServerWithoutIdentitiesIsAbsent() {
    Map<String, Object> rec = obj("codes", arr("typo", 3), "count", 2, "lastSeen", 1.0);
    assertThat(LedgerCodec.decode(oneRecord(rec)).servers()).isEmpty();
    assertThat(LedgerCodec.decode(oneRecord(with(rec, "codes", arr()))).servers()).isEmpty();
  }

  static Stream<Arguments> counts() {
    return Stream.of(
        Arguments.of("zero", 0, 0L),
        Arguments.of("integer", 3, 3L),
        Arguments.of("long max", Long.MAX_VALUE, Long.MAX_VALUE),
        Arguments.of("negative", -1, 2L),
        Arguments.of("fraction", 1.5, 2L),
        Arguments.of("integral double", 4.0, 2L),
        Arguments.of("exponent form", 4e0, 2L),
        Arguments.of("string", "4", 2L),
        Arguments.of("boolean", true, 2L),
        Arguments.of("null", null, 2L),
        Arguments.of("too large", BigInteger.TWO.pow(63), 2L),
        Arguments.of("huge", BigInteger.TEN.pow(400), 2L),
        Arguments.of("infinite", Double.POSITIVE_INFINITY, 2L),
        Arguments.of("NaN", Double.NaN, 2L),
        Arguments.of("array", arr(4), 2L));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("counts")
  void invalidCountIsReplacedByTheNumberOfSurvivingDistinctCodes(
      String label, Object count, long expected) {
    Map<String, Object> rec =
        obj(
            "codes",
            arr(
                UNROUTABLE_SERVER_REQUEST,
                UNATTRIBUTABLE_NOTIFICATION,
                "typo",
                UNROUTABLE_SERVER_REQUEST),
            "count",
            count,
            "lastSeen",
            1.0);
    LedgerLoad load = LedgerCodec.decode(oneRecord(rec));
    assertThat(load.servers().get("s").get("id").count()).isEqualTo(expected);
    LedgerLoad missing = LedgerCodec.decode(oneRecord(without(rec, "count")));
    assertThat(missing.servers().get("s").get("id").count()).isEqualTo(2L);
  }

  static Stream<Arguments> lastSeens() {
    return Stream.of(
        Arguments.of("double", 1712000000.5, 1712000000.5),
        Arguments.of("integer", 1700, 1700.0),
        Arguments.of("negative", -5.0, -5.0),
        Arguments.of("string", "1700", 0.0),
        Arguments.of("boolean", true, 0.0),
        Arguments.of("null", null, 0.0),
        Arguments.of("NaN", Double.NaN, 0.0),
        Arguments.of("Infinity", Double.POSITIVE_INFINITY, 0.0),
        Arguments.of("-Infinity", Double.NEGATIVE_INFINITY, 0.0),
        Arguments.of("array", arr(1.0), 0.0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("lastSeens")
  void lastSeenMustBeAFiniteNumber(String label, Object lastSeen, double expected) {
    Map<String, Object> rec = with(validRecord(), "lastSeen", lastSeen);
    assertThat(LedgerCodec.decode(oneRecord(rec)).servers().get("s").get("id").lastSeen())
        .isEqualTo(expected);
    assertThat(
            LedgerCodec.decode(oneRecord(without(validRecord(), "lastSeen")))
                .servers()
                .get("s")
                .get("id")
                .lastSeen())
        .isEqualTo(0.0);
  }

  @Test
  void invalidClearedMapOrEntriesAreIgnored() {
    for (Object cleared : new Object[] {arr(), "x", 3, true}) {
      LedgerLoad load = LedgerCodec.decode(with(specExample(), "cleared", cleared));
      assertThat(load.cleared()).isEmpty();
      assertThat(load.servers()).containsOnlyKeys("files-mcp");
    }
    Map<String, Object> markers =
        obj(
            "",
            1e12,
            "nan",
            Double.NaN,
            "inf",
            Double.POSITIVE_INFINITY,
            "str",
            "5",
            "bool",
            true,
            "null",
            null,
            "int",
            5,
            "ok",
            6.5);
    LedgerLoad load = LedgerCodec.decode(with(specExample(), "cleared", markers));
    assertThat(load.cleared()).containsExactly(Map.entry("int", 5.0), Map.entry("ok", 6.5));
    assertThat(load.dropped()).hasSize(6);
  }

  @Test
  void clearMarkerDropsRecordsLastSeenAtOrBeforeIt() {
    Map<String, Object> at = with(specExample(), "cleared", obj("files-mcp", 1712000000.5));
    LedgerLoad load = LedgerCodec.decode(at);
    assertThat(load.servers().get("files-mcp")).containsOnlyKeys(NEW);
    assertThat(load.cleared()).containsExactly(Map.entry("files-mcp", 1712000000.5));
    Map<String, Object> after = with(specExample(), "cleared", obj("files-mcp", 1712000300.0));
    assertThat(LedgerCodec.decode(after).servers()).isEmpty();
    Map<String, Object> before = with(specExample(), "cleared", obj("files-mcp", 1712000000.0));
    assertThat(LedgerCodec.decode(before).servers().get("files-mcp")).hasSize(2);
    Map<String, Object> other = with(specExample(), "cleared", obj("other", 2e9));
    assertThat(LedgerCodec.decode(other).servers().get("files-mcp")).hasSize(2);
  }

  @Test
  void notesNameTheEscapedPath() {
    Map<String, Object> doc =
        obj(
            "schema",
            1,
            "servers",
            obj("a\nb", obj("identities", obj("x\u0000y", obj("codes", arr("bad\u001b"))))));
    LedgerLoad load = LedgerCodec.decode(doc);
    assertThat(load.dropped())
        .extracting(Dropped::toString)
        .contains(
            "servers/a\\nb/identities/x\\x00y/codes/0: string \"bad\\x1b\" is not a known hazard"
                + " code");
    assertThat(load.dropped()).allSatisfy(d -> assertThat(d.toString()).doesNotContain("\n"));
  }

  // ---- writing -----------------------------------------------------------------------------

  private static LedgerSnapshot snapshotOf(LedgerLoad load) {
    return new LedgerSnapshot(0, load.servers(), load.cleared());
  }

  private static SortedMap<String, SortedMap<String, HazardRecord>> servers(
      Object... nameIdentityRecord) {
    SortedMap<String, SortedMap<String, HazardRecord>> out = new TreeMap<>();
    for (int i = 0; i < nameIdentityRecord.length; i += 3) {
      out.computeIfAbsent((String) nameIdentityRecord[i], k -> new TreeMap<>())
          .put((String) nameIdentityRecord[i + 1], (HazardRecord) nameIdentityRecord[i + 2]);
    }
    return out;
  }

  @Test
  void flatUnionIsSortedUnionSumAndMax() {
    Map<String, Object> doc =
        LedgerCodec.encode(
            servers(
                "s",
                "a",
                record(3, 10.0, UNROUTABLE_SERVER_REQUEST),
                "s",
                "b",
                record(4, 30.0, UNATTRIBUTABLE_NOTIFICATION),
                "s",
                "c",
                record(5, 20.0, UNROUTABLE_SERVER_REQUEST)),
            Map.of());
    assertThat(JsonWriter.compact(((Map<?, ?>) doc.get("servers")).get("s")))
        .endsWith(
            "\"codes\":[\"unattributable_notification\",\"unroutable_server_request\"],"
                + "\"count\":12,\"lastSeen\":30.0}");
  }

  @Test
  void serverWithoutAnyCodeIsNotWrittenAndEmptyIdentitiesNeverAppear() {
    Map<String, Object> doc =
        LedgerCodec.encode(
            servers(
                "empty",
                "a",
                HazardRecord.of(List.of(), 3, 1.0),
                "mixed",
                "a",
                HazardRecord.of(List.of(), 3, 1.0),
                "mixed",
                "b",
                record(1, 2.0, UNROUTABLE_SERVER_REQUEST),
                "",
                "a",
                record(1, 2.0, UNROUTABLE_SERVER_REQUEST)),
            Map.of());
    assertThat(JsonWriter.compact(doc))
        .isEqualTo(
            "{\"schema\":1,\"servers\":{\"mixed\":{\"identities\":{\"b\":{\"codes\":"
                + "[\"unroutable_server_request\"],\"count\":1,\"lastSeen\":2.0}},"
                + "\"codes\":[\"unroutable_server_request\"],\"count\":1,\"lastSeen\":2.0}}}");
  }

  @Test
  void namesAndIdentitiesAreWrittenInCodePointOrder() {
    HazardRecord r = record(1, 1.0, UNROUTABLE_SERVER_REQUEST);
    Map<String, Object> doc =
        LedgerCodec.encode(
            servers("\ud83d\ude00", "\ud83d\ude00", r, "\ufb01", "\ufb01", r, "\ufb01", "b", r),
            Map.of());
    Map<?, ?> serversOut = (Map<?, ?>) doc.get("servers");
    assertThat(List.<Object>copyOf(serversOut.keySet())).containsExactly("\ufb01", "\ud83d\ude00");
    Map<?, ?> identities = (Map<?, ?>) ((Map<?, ?>) serversOut.get("\ufb01")).get("identities");
    assertThat(List.<Object>copyOf(identities.keySet())).containsExactly("b", "\ufb01");
  }

  @Test
  void clearedIsWrittenLastOnlyWhenNonEmptyAndValid() {
    HazardRecord r = record(1, 1.0, UNROUTABLE_SERVER_REQUEST);
    assertThat(LedgerCodec.encode(servers("s", "", r), Map.of())).doesNotContainKey("cleared");
    Map<String, Double> markers = new TreeMap<>();
    markers.put("z", 2.0);
    markers.put("a", 1.0);
    markers.put("", 3.0);
    markers.put("nan", Double.NaN);
    Map<String, Object> doc = LedgerCodec.encode(servers("s", "", r), markers);
    assertThat(List.copyOf(doc.keySet())).containsExactly("schema", "servers", "cleared");
    assertThat(JsonWriter.compact(doc.get("cleared"))).isEqualTo("{\"a\":1.0,\"z\":2.0}");
    // A marker alone (no observations) is still written: the cross-process clear needs that.
    assertThat(JsonWriter.compact(LedgerCodec.encode(Map.of(), Map.of("x", 5.0))))
        .isEqualTo("{\"schema\":1,\"servers\":{},\"cleared\":{\"x\":5.0}}");
  }

  @Test
  void nonFiniteTimesAreWrittenAsZero() {
    Map<String, Object> doc =
        LedgerCodec.encode(
            servers("s", "", record(1, Double.NaN, UNROUTABLE_SERVER_REQUEST)), Map.of());
    assertThat(JsonWriter.compact(doc)).contains("\"lastSeen\":0.0}}");
    assertThat(JsonWriter.compact(doc)).doesNotContain("NaN");
  }

  @Test
  void typesAreLongCountsAndDoubleTimes() {
    Map<String, Object> doc =
        LedgerCodec.encode(servers("s", "", record(1, 5, UNROUTABLE_SERVER_REQUEST)), Map.of());
    Map<?, ?> entry = (Map<?, ?>) ((Map<?, ?>) doc.get("servers")).get("s");
    assertThat(entry.get("count")).isInstanceOf(Long.class);
    assertThat(entry.get("lastSeen")).isInstanceOf(Double.class);
    assertThat(JsonWriter.compact(entry.get("lastSeen"))).isEqualTo("5.0");
  }

  @Test
  void hazardRecordRefusesUnknownCodesAndNegativeCounts() {
    assertThatThrownBy(() -> HazardRecord.of(List.of("typo"), 1, 1.0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> HazardRecord.of(List.of(UNROUTABLE_SERVER_REQUEST), -1, 1.0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(
            HazardRecord.of(
                    List.of(
                        UNROUTABLE_SERVER_REQUEST,
                        UNATTRIBUTABLE_NOTIFICATION,
                        UNROUTABLE_SERVER_REQUEST),
                    1,
                    1.0)
                .codes())
        .containsExactly(UNATTRIBUTABLE_NOTIFICATION, UNROUTABLE_SERVER_REQUEST);
  }

  @Test
  void hazardCodeVocabularyIsClosed() {
    assertThat(HazardCodes.ALL)
        .containsExactly("unattributable_notification", "unroutable_server_request");
    assertThat(HazardCodes.isKnown("unroutable_server_request")).isTrue();
    assertThat(HazardCodes.isKnown("unattributable_notification")).isTrue();
    for (Object other : new Object[] {null, "", "Unroutable_server_request", "x", 1, List.of()}) {
      assertThat(HazardCodes.isKnown(other)).as(String.valueOf(other)).isFalse();
    }
  }

  @Test
  void decodeOfEncodeIsTheIdentity() {
    SortedMap<String, SortedMap<String, HazardRecord>> in =
        servers(
            "a",
            "",
            record(2, 1.0, UNROUTABLE_SERVER_REQUEST),
            "a",
            OLD,
            record(0, 0.0, UNATTRIBUTABLE_NOTIFICATION, UNROUTABLE_SERVER_REQUEST),
            "\ud83d\ude00",
            NEW,
            record(Long.MAX_VALUE, -3.25, UNATTRIBUTABLE_NOTIFICATION));
    Map<String, Double> cleared = Map.of("gone", 12.5, "a", -10.0);
    LedgerLoad out = LedgerCodec.decode(LedgerCodec.encode(in, cleared));
    assertThat(out.dropped()).isEmpty();
    assertThat(out.servers()).isEqualTo(in);
    assertThat(out.cleared()).isEqualTo(cleared);
    assertThat(Set.copyOf(out.servers().keySet())).hasSize(2);
  }
}
