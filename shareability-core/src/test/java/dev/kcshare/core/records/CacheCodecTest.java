package dev.kcshare.core.records;

import static dev.kcshare.core.records.Json.arr;
import static dev.kcshare.core.records.Json.obj;
import static dev.kcshare.core.records.Json.with;
import static dev.kcshare.core.records.Json.without;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.handshake.Answer;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.core.verdict.Evidence;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/design.md#read-tolerance, docs/formats.md#the-verdict-cache--shareability-verdictsjson: the
 * verdict-cache document, read tolerantly and written deterministically.
 */
final class CacheCodecTest {
  static final String IDENTITY = "<64 hex>\u0000<64 hex>\u0000<24 hex>\u0000<24 hex>\u00002";

  static Map<String, Object> specHandshake() {
    return obj(
        "capabilities",
        obj("tools", obj("listChanged", true)),
        "protocolVersion",
        "2024-11-05",
        "serverInfo",
        obj("name", "files", "version", "0.6.3"),
        "toolAnnotations",
        arr(obj("readOnlyHint", true, "title", "Read file")),
        "hasTools",
        true);
  }

  static Map<String, Object> specRow() {
    return obj(
        "ran",
        true,
        "callerSensitive",
        false,
        "reasons",
        arr(),
        "evaluatedAt",
        1712000000.25,
        "identity",
        IDENTITY,
        "reportedVersion",
        "0.6.3",
        "era",
        "legacy",
        "handshake",
        specHandshake());
  }

  /** The example document of docs/formats.md#the-verdict-cache--shareability-verdictsjson. */
  static Map<String, Object> specExample() {
    return obj(
        "entries", obj("files-mcp", specRow()), "applied", arr("files-mcp", "removed-server"));
  }

  private static CacheRow onlyRow(Object row) {
    CacheLoad load = CacheCodec.decode(obj("entries", obj("s", row)));
    assertThat(load.rows()).containsOnlyKeys("s");
    return load.rows().get("s");
  }

  private static boolean dropped(Object row) {
    return CacheCodec.decode(obj("entries", obj("s", row))).rows().isEmpty();
  }

  // ---- the specification's document --------------------------------------------------------

  @Test
  void specExampleDecodesFieldByField() {
    CacheLoad load = CacheCodec.decode(specExample());
    assertThat(load.dropped()).isEmpty();
    assertThat(load.applied()).containsExactly("files-mcp", "removed-server");
    CacheRow row = load.rows().get("files-mcp");
    assertThat(row.ran()).isTrue();
    assertThat(row.callerSensitive()).isFalse();
    assertThat(row.reasons()).isEmpty();
    assertThat(row.evaluatedAt()).isEqualTo(1712000000.25);
    assertThat(row.identity()).isEqualTo(IDENTITY);
    assertThat(row.reportedVersion()).isEqualTo("0.6.3");
    assertThat(row.era()).isEqualTo(Era.LEGACY);
    StoredHandshake handshake = row.handshake();
    assertThat(handshake).isNotNull();
    assertThat(handshake.capabilities()).isEqualTo(obj("tools", obj("listChanged", true)));
    assertThat(handshake.protocolVersion()).isEqualTo("2024-11-05");
    assertThat(handshake.serverInfo()).isEqualTo(obj("name", "files", "version", "0.6.3"));
    assertThat(handshake.toolAnnotations())
        .containsExactly(obj("readOnlyHint", true, "title", "Read file"));
    assertThat(handshake.hasTools()).isTrue();
  }

  @Test
  void specExampleReEncodesToTheSameDocument() {
    CacheLoad load = CacheCodec.decode(specExample());
    Map<String, Object> encoded = CacheCodec.encode(load.rows(), load.applied());
    assertThat(encoded).isEqualTo(specExample());
    assertThat(JsonWriter.compact(encoded)).isEqualTo(JsonWriter.compact(specExample()));
  }

  @Test
  void specExampleIsWrittenInTheFixedFormat() {
    CacheLoad load = CacheCodec.decode(specExample());
    assertThat(JsonWriter.pretty(CacheCodec.encode(load.rows(), load.applied())))
        .isEqualTo(
            """
            {
              "entries": {
                "files-mcp": {
                  "ran": true,
                  "callerSensitive": false,
                  "reasons": [],
                  "evaluatedAt": 1712000000.25,
                  "identity": "<64 hex>\\u0000<64 hex>\\u0000<24 hex>\\u0000<24 hex>\\u00002",
                  "reportedVersion": "0.6.3",
                  "era": "legacy",
                  "handshake": {
                    "capabilities": {
                      "tools": {
                        "listChanged": true
                      }
                    },
                    "protocolVersion": "2024-11-05",
                    "serverInfo": {
                      "name": "files",
                      "version": "0.6.3"
                    },
                    "toolAnnotations": [
                      {
                        "readOnlyHint": true,
                        "title": "Read file"
                      }
                    ],
                    "hasTools": true
                  }
                }
              },
              "applied": [
                "files-mcp",
                "removed-server"
              ]
            }
            """);
  }

  // ---- common rules ------------------------------------------------------------------------

  static Stream<Object> nonObjects() {
    return Stream.of(arr(), arr(specExample()), "x", 1, 2.5, false, BigInteger.TEN.pow(400));
  }

  @ParameterizedTest
  @MethodSource("nonObjects")
  void topLevelNotAnObjectIsEmpty(Object root) {
    CacheLoad load = CacheCodec.decode(root);
    assertThat(load.rows()).isEmpty();
    assertThat(load.applied()).isEmpty();
    assertThat(load.dropped()).singleElement().extracting(Dropped::where).isEqualTo("");
  }

  @Test
  void nullRootIsEmpty() {
    assertThat(CacheCodec.decode(null).rows()).isEmpty();
  }

  @Test
  void unknownMembersAndAStraySchemaAreIgnored() {
    Map<String, Object> doc = with(specExample(), "schema", 99);
    doc.put("future", arr(1));
    doc.put("entries", obj("files-mcp", with(specRow(), "extra", obj("x", 1))));
    CacheLoad load = CacheCodec.decode(doc);
    assertThat(load.dropped()).isEmpty();
    assertThat(load.rows()).isEqualTo(CacheCodec.decode(specExample()).rows());
  }

  // ---- cache tolerance -------------------------------------------------------------------

  static Stream<Object> nonObjectEntries() {
    return Stream.of(null, arr(specRow()), "entries", 1, true);
  }

  @ParameterizedTest
  @MethodSource("nonObjectEntries")
  void entriesNotAnObjectGivesNoRowsButAppliedIsStillRead(Object entries) {
    CacheLoad load = CacheCodec.decode(with(specExample(), "entries", entries));
    assertThat(load.rows()).isEmpty();
    assertThat(load.applied()).containsExactly("files-mcp", "removed-server");
  }

  @Test
  void entriesMissingGivesNoRowsButAppliedIsStillRead() {
    CacheLoad load = CacheCodec.decode(without(specExample(), "entries"));
    assertThat(load.rows()).isEmpty();
    assertThat(load.applied()).containsExactly("files-mcp", "removed-server");
  }

  @Test
  void appliedNotAnArrayGivesNoMarkers() {
    for (Object applied : new Object[] {null, "files-mcp", obj("files-mcp", true), 1}) {
      CacheLoad load = CacheCodec.decode(with(specExample(), "applied", applied));
      assertThat(load.applied()).isEmpty();
      assertThat(load.rows()).containsOnlyKeys("files-mcp");
    }
    assertThat(CacheCodec.decode(without(specExample(), "applied")).applied()).isEmpty();
  }

  @Test
  void appliedKeepsNonEmptyStringsSortedAndDeduplicated() {
    CacheLoad load =
        CacheCodec.decode(
            obj(
                "applied",
                arr("z", "", 1, null, true, arr("a"), "a", "z", "\ud83d\ude00", "\ufb01")));
    assertThat(load.applied()).containsExactly("a", "z", "\ufb01", "\ud83d\ude00");
    assertThat(load.dropped()).hasSize(6); // "", 1, null, true, ["a"], plus missing entries
  }

  @Test
  void rowWithEmptyNameOrNonObjectValueIsSkipped() {
    Map<String, Object> entries =
        obj("", specRow(), "a", arr(), "b", "row", "c", null, "d", 1, "ok", specRow());
    CacheLoad load = CacheCodec.decode(obj("entries", entries));
    assertThat(load.rows()).containsOnlyKeys("ok");
  }

  static Stream<Arguments> identities() {
    return Stream.of(
        Arguments.of("missing", null, false, true),
        Arguments.of("null", null, false, false),
        Arguments.of("number", 2, false, false),
        Arguments.of("array", arr(IDENTITY), false, false),
        Arguments.of("no NUL", "abc2", false, false),
        Arguments.of("schema 1", "a\u0000b\u0000c\u00001", false, false),
        Arguments.of("schema 3", "a\u0000b\u0000c\u00003", false, false),
        Arguments.of("schema 2.0", "a\u0000b\u0000c\u00002.0", false, false),
        Arguments.of("schema 02", "a\u0000b\u0000c\u000002", false, false),
        Arguments.of("schema with space", "a\u0000b\u0000c\u00002 ", false, false),
        Arguments.of("empty last field", "a\u0000b\u0000c\u0000", false, false),
        Arguments.of("schema 2", "a\u0000b\u0000c\u00002", true, false),
        Arguments.of("bare schema", "\u00002", true, false),
        Arguments.of(
            "NULs inside binary_version", "a\u0000b\u0000c\u0000d\u0000e\u00002", true, false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("identities")
  void identityMustBeAStringWhoseLastNulFieldIsTwo(
      String label, Object identity, boolean kept, boolean remove) {
    Map<String, Object> row =
        remove ? without(specRow(), "identity") : with(specRow(), "identity", identity);
    assertThat(dropped(row)).isEqualTo(!kept);
  }

  static Stream<Object> nonBooleans() {
    return Stream.of(null, "true", 1, 0, 1.0, arr(true), obj());
  }

  @ParameterizedTest
  @MethodSource("nonBooleans")
  void ranMustBeABoolean(Object ran) {
    assertThat(dropped(with(specRow(), "ran", ran))).isTrue();
    assertThat(dropped(without(specRow(), "ran"))).isTrue();
  }

  @Test
  void ranFalseRowsAreAccepted() {
    CacheRow row = onlyRow(with(without(specRow(), "handshake"), "ran", false));
    assertThat(row.ran()).isFalse();
  }

  @ParameterizedTest
  @MethodSource("nonBooleans")
  void callerSensitiveIsTrueOnlyForJsonTrue(Object value) {
    assertThat(onlyRow(with(specRow(), "callerSensitive", value)).callerSensitive()).isFalse();
    assertThat(onlyRow(with(specRow(), "callerSensitive", false)).callerSensitive()).isFalse();
    assertThat(onlyRow(without(specRow(), "callerSensitive")).callerSensitive()).isFalse();
    assertThat(onlyRow(with(specRow(), "callerSensitive", true)).callerSensitive()).isTrue();
  }

  @Test
  void reasonsNotAnArrayIsEmptyAndNonStringsAreDropped() {
    for (Object reasons : new Object[] {null, "handshake_not_reproducible", 1, obj()}) {
      assertThat(onlyRow(with(specRow(), "reasons", reasons)).reasons()).isEmpty();
    }
    assertThat(onlyRow(without(specRow(), "reasons")).reasons()).isEmpty();
    Object mixed = arr("handshake_not_reproducible", 1, null, arr("x"), "", "other");
    assertThat(onlyRow(with(specRow(), "reasons", mixed)).reasons())
        .containsExactly("handshake_not_reproducible", "", "other");
  }

  static Stream<Arguments> evaluatedAts() {
    return Stream.of(
        Arguments.of(1712000000.25, 1712000000.25),
        Arguments.of(1712000000, 1712000000.0),
        Arguments.of(-1.5, -1.5),
        Arguments.of(Double.NaN, 0.0),
        Arguments.of(Double.POSITIVE_INFINITY, 0.0),
        Arguments.of(Double.NEGATIVE_INFINITY, 0.0),
        Arguments.of("1712000000", 0.0),
        Arguments.of(true, 0.0),
        Arguments.of(null, 0.0),
        Arguments.of(arr(1.0), 0.0));
  }

  @ParameterizedTest
  @MethodSource("evaluatedAts")
  void evaluatedAtMustBeAFiniteNumber(Object value, double expected) {
    assertThat(onlyRow(with(specRow(), "evaluatedAt", value)).evaluatedAt()).isEqualTo(expected);
    assertThat(onlyRow(without(specRow(), "evaluatedAt")).evaluatedAt()).isEqualTo(0.0);
  }

  @Test
  void reportedVersionMustBeAString() {
    for (Object version : new Object[] {null, 6, true, arr("0.6.3"), obj()}) {
      assertThat(onlyRow(with(specRow(), "reportedVersion", version)).reportedVersion()).isEmpty();
    }
    assertThat(onlyRow(without(specRow(), "reportedVersion")).reportedVersion()).isEmpty();
    assertThat(onlyRow(with(specRow(), "reportedVersion", "")).reportedVersion()).isEmpty();
  }

  @Test
  void eraIsModernOnlyForTheExactString() {
    assertThat(onlyRow(with(specRow(), "era", "modern")).era()).isEqualTo(Era.MODERN);
    for (Object era : new Object[] {null, "MODERN", "Modern", "legacy", "x", 1, true}) {
      assertThat(onlyRow(with(specRow(), "era", era)).era()).isEqualTo(Era.LEGACY);
    }
    assertThat(onlyRow(without(specRow(), "era")).era()).isEqualTo(Era.LEGACY);
  }

  // ---- handshake well-formedness ---------------------------------------------------------

  static Stream<Arguments> malformedHandshakes() {
    return Stream.of(
        Arguments.of("not an object", arr(specHandshake())),
        Arguments.of("null", null),
        Arguments.of("string", "handshake"),
        Arguments.of("capabilities missing", without(specHandshake(), "capabilities")),
        Arguments.of("capabilities array", with(specHandshake(), "capabilities", arr())),
        Arguments.of("capabilities string", with(specHandshake(), "capabilities", "x")),
        Arguments.of("capabilities false", with(specHandshake(), "capabilities", false)),
        Arguments.of("hasTools missing", without(specHandshake(), "hasTools")),
        Arguments.of("hasTools string", with(specHandshake(), "hasTools", "true")),
        Arguments.of("hasTools number", with(specHandshake(), "hasTools", 1)),
        Arguments.of("hasTools null", with(specHandshake(), "hasTools", null)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformedHandshakes")
  void malformedHandshakeKeepsTheRowWithoutIt(String label, Object handshake) {
    CacheRow row = onlyRow(with(specRow(), "handshake", handshake));
    assertThat(row.handshake()).isNull();
    assertThat(row.ran()).isTrue();
    Evidence evidence = row.applyTo(Evidence.builder().probeOk(true)).build();
    assertThat(evidence.probeOk()).isFalse();
    assertThat(evidence.capabilities()).isNull();
    assertThat(evidence.protocolVersion()).isEmpty();
    assertThat(evidence.toolAnnotations()).isEmpty();
    assertThat(evidence.hasTools()).isFalse();
    assertThat(evidence.preflightRan()).isTrue();
  }

  @Test
  void absentHandshakeIsNoHandshakeWithoutANote() {
    CacheLoad load = CacheCodec.decode(obj("entries", obj("s", without(specRow(), "handshake"))));
    assertThat(load.rows().get("s").handshake()).isNull();
    assertThat(load.dropped()).extracting(Dropped::where).doesNotContain("entries/s/handshake");
  }

  @Test
  void nullCapabilitiesIsWellFormed() {
    StoredHandshake h =
        onlyRow(with(specRow(), "handshake", with(specHandshake(), "capabilities", null)))
            .handshake();
    assertThat(h).isNotNull();
    assertThat(h.capabilities()).isNull();
  }

  @Test
  void lenientHandshakeParts() {
    Map<String, Object> handshake =
        obj(
            "capabilities",
            obj(),
            "protocolVersion",
            7,
            "serverInfo",
            arr("files"),
            "toolAnnotations",
            arr(obj("readOnlyHint", true), "x", null, arr(), 3, obj()),
            "hasTools",
            false);
    StoredHandshake h = onlyRow(with(specRow(), "handshake", handshake)).handshake();
    assertThat(h).isNotNull();
    assertThat(h.protocolVersion()).isEmpty();
    assertThat(h.serverInfo()).isEmpty();
    assertThat(h.toolAnnotations()).containsExactly(obj("readOnlyHint", true), obj());
    assertThat(h.hasTools()).isFalse();
    StoredHandshake bare =
        onlyRow(with(specRow(), "handshake", obj("capabilities", null, "hasTools", true)))
            .handshake();
    assertThat(bare).isEqualTo(new StoredHandshake(null, "", Map.of(), List.of(), true));
    StoredHandshake notArray =
        onlyRow(with(specRow(), "handshake", with(specHandshake(), "toolAnnotations", obj())))
            .handshake();
    assertThat(notArray.toolAnnotations()).isEmpty();
  }

  @Test
  void wellFormedHandshakeYieldsProbeOkEvidence() {
    CacheRow row = onlyRow(with(specRow(), "callerSensitive", true));
    Evidence evidence = row.applyTo(Evidence.builder().name("files-mcp")).build();
    assertThat(evidence.probeOk()).isTrue();
    assertThat(evidence.capabilities()).isEqualTo(obj("tools", obj("listChanged", true)));
    assertThat(evidence.protocolVersion()).isEqualTo("2024-11-05");
    assertThat(evidence.toolAnnotations())
        .isEqualTo(List.of(obj("readOnlyHint", true, "title", "Read file")));
    assertThat(evidence.hasTools()).isTrue();
    assertThat(evidence.preflightRan()).isTrue();
    assertThat(evidence.preflightCallerSensitive()).isTrue();
  }

  @Test
  void storedHandshakeFromAnAnswerKeepsOnlyObjectAnnotations() {
    Map<String, Object> capabilities = new LinkedHashMap<>();
    capabilities.put("tools", obj());
    Answer answer =
        new Answer(
            Era.MODERN,
            capabilities,
            "2026-07-28",
            List.of("2026-07-28"),
            obj("version", "1.0"),
            List.of("read"),
            arr(obj("b", 1, "a", 2), "not an object"));
    StoredHandshake h = StoredHandshake.of(answer);
    assertThat(h.capabilities()).isEqualTo(obj("tools", obj()));
    assertThat(h.protocolVersion()).isEqualTo("2026-07-28");
    assertThat(h.serverInfo()).isEqualTo(obj("version", "1.0"));
    assertThat(h.toolAnnotations()).containsExactly(obj("a", 2, "b", 1));
    assertThat(h.hasTools()).isTrue();
  }

  // ---- writing -----------------------------------------------------------------------------

  private static CacheRow row(String identity, String version, StoredHandshake handshake) {
    return new CacheRow(true, false, List.of(), 5.5, identity, version, Era.LEGACY, handshake);
  }

  @Test
  void rowMembersAreWrittenInTheFixedOrderAndEntriesSortedByCodePoint() {
    TreeMap<String, CacheRow> rows = new TreeMap<>();
    StoredHandshake h = new StoredHandshake(Map.of(), "v", Map.of(), List.of(), false);
    rows.put("\ud83d\ude00", row(IDENTITY, "1", h));
    rows.put("\ufb01", row(IDENTITY, "1", null));
    rows.put(
        "a",
        new CacheRow(
            true, true, List.of("handshake_not_reproducible"), 1.0, IDENTITY, "", Era.MODERN, h));
    Map<String, Object> doc = CacheCodec.encode(rows, List.of("b", "a", "", "a"));
    assertThat(List.copyOf(doc.keySet())).containsExactly("entries", "applied");
    Map<?, ?> entries = (Map<?, ?>) doc.get("entries");
    assertThat(List.<Object>copyOf(entries.keySet()))
        .containsExactly("a", "\ufb01", "\ud83d\ude00");
    assertThat(List.<Object>copyOf(((Map<?, ?>) entries.get("a")).keySet()))
        .containsExactly(
            "ran",
            "callerSensitive",
            "reasons",
            "evaluatedAt",
            "identity",
            "reportedVersion",
            "era",
            "handshake");
    assertThat(((Map<?, ?>) entries.get("a")).get("era")).isEqualTo("modern");
    assertThat(
            List.<Object>copyOf(
                ((Map<?, ?>) ((Map<?, ?>) entries.get("a")).get("handshake")).keySet()))
        .containsExactly(
            "capabilities", "protocolVersion", "serverInfo", "toolAnnotations", "hasTools");
    assertThat(((Map<?, ?>) entries.get("\ufb01")).containsKey("handshake")).isFalse();
    assertThat(doc.get("applied")).isEqualTo(List.of("a", "b"));
  }

  @Test
  void serverProvidedObjectsAreSortedByCodePointRecursively() {
    Map<String, Object> capabilities =
        obj(
            "z",
            obj("\ud83d\ude00", 1, "\ufb01", obj("y", 1, "x", arr(obj("d", 1, "c", 2)))),
            "a",
            1);
    StoredHandshake h =
        new StoredHandshake(
            capabilities,
            "v",
            obj("version", "1", "name", "n"),
            List.of(obj("t", 1, "r", 2)),
            true);
    Map<String, Object> doc =
        CacheCodec.encode(new TreeMap<>(Map.of("s", row(IDENTITY, "", h))), List.of());
    assertThat(JsonWriter.compact(doc))
        .contains(
            "\"handshake\":{\"capabilities\":{\"a\":1,\"z\":{\"\\ufb01\":{\"x\":[{\"c\":2,\"d\":1}],"
                + "\"y\":1},\"\\ud83d\\ude00\":1}},\"protocolVersion\":\"v\","
                + "\"serverInfo\":{\"name\":\"n\",\"version\":\"1\"},"
                + "\"toolAnnotations\":[{\"r\":2,\"t\":1}],\"hasTools\":true}");
  }

  @Test
  void deeplyNestedServerObjectsAreCopiedSortedAndWrittenWithoutRecursion() {
    int depth = 20_000;
    Object nested = "leaf";
    for (int i = 0; i < depth; i++) {
      nested = (i % 2 == 0) ? obj("b", nested, "a", i) : arr(nested);
    }
    Map<String, Object> capabilities = obj("deep", nested);
    Map<String, Object> doc =
        obj(
            "entries",
            obj(
                "s",
                with(specRow(), "handshake", with(specHandshake(), "capabilities", capabilities))));
    CacheLoad load = CacheCodec.decode(doc);
    String text = JsonWriter.compact(CacheCodec.encode(load.rows(), load.applied()));
    assertThat(text).contains("{\"a\":0,\"b\":\"leaf\"}");
    assertThat(text).contains("{\"a\":" + (depth - 2) + ",\"b\":[");
  }

  @Test
  void nonFiniteEvaluatedAtIsWrittenAsZero() {
    CacheRow row = new CacheRow(true, false, List.of(), Double.NaN, IDENTITY, "", Era.LEGACY, null);
    Map<String, Object> doc = CacheCodec.encode(Map.of("s", row), Set.of());
    assertThat(JsonWriter.compact(doc)).contains("\"evaluatedAt\":0.0");
  }

  @Test
  void rowUnderTheEmptyNameIsNotWritten() {
    Map<String, CacheRow> rows = new TreeMap<>();
    rows.put("", row(IDENTITY, "", null));
    assertThat(JsonWriter.compact(CacheCodec.encode(rows, List.of())))
        .isEqualTo("{\"entries\":{},\"applied\":[]}");
  }

  @Test
  void decodeOfEncodeIsTheIdentity() {
    StoredHandshake h =
        new StoredHandshake(
            obj("tools", obj("listChanged", true), "n", List.of(1L, 2.5, "x", false)),
            "2025-06-18",
            obj("name", "a\u0000b", "version", "1"),
            List.of(obj("readOnlyHint", false), obj()),
            true);
    Map<String, CacheRow> rows = new TreeMap<>();
    rows.put(
        "a",
        new CacheRow(
            true,
            true,
            List.of("handshake_not_reproducible"),
            3.25,
            IDENTITY,
            "1.0",
            Era.MODERN,
            h));
    rows.put("b", new CacheRow(false, false, List.of(), 0.0, "x\u00002", "", Era.LEGACY, null));
    rows.put(
        "\ud83d\ude00",
        new CacheRow(
            true,
            false,
            List.of(),
            -1.0,
            IDENTITY,
            "",
            Era.LEGACY,
            new StoredHandshake(null, "", Map.of(), List.of(), false)));
    List<String> applied = new ArrayList<>(List.of("gone", "a"));
    CacheLoad load = CacheCodec.decode(CacheCodec.encode(rows, applied));
    assertThat(load.dropped()).isEmpty();
    assertThat(load.rows()).isEqualTo(rows);
    assertThat(load.applied()).containsExactly("a", "gone");
  }
}
