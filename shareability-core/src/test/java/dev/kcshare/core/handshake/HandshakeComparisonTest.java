package dev.kcshare.core.handshake;

import static dev.kcshare.core.handshake.Fixtures.arr;
import static dev.kcshare.core.handshake.Fixtures.baseline;
import static dev.kcshare.core.handshake.Fixtures.legacy;
import static dev.kcshare.core.handshake.Fixtures.modern;
import static dev.kcshare.core.handshake.Fixtures.nestedArrays;
import static dev.kcshare.core.handshake.Fixtures.nestedObjects;
import static dev.kcshare.core.handshake.Fixtures.obj;
import static dev.kcshare.core.handshake.Fixtures.tool;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.kcshare.core.handshake.internal.Answers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

final class HandshakeComparisonTest {
  private static final Comparison SAME = new Comparison(true, false, "");
  private static final Comparison INITIALIZE =
      new Comparison(true, true, "initialize_shape_differs");
  private static final Comparison DISCOVER = new Comparison(true, true, "discover_shape_differs");
  private static final Comparison TOOLS = new Comparison(true, true, "tools_shape_differs");
  private static final Comparison MALFORMED = new Comparison(false, false, "malformed_tool_names");

  /** Asserts the outcome both ways round: the comparison is symmetric for one era. */
  private static void assertCompares(Answer a, Answer b, Comparison expected) {
    assertThat(HandshakeComparison.compare(a, b)).as("compare(a, b)").isEqualTo(expected);
    assertThat(HandshakeComparison.compare(b, a)).as("compare(b, a)").isEqualTo(expected);
  }

  private static Answer withCapabilities(@Nullable Map<String, ?> capabilities) {
    Answer base = baseline();
    return legacy(
        capabilities,
        base.protocolVersion(),
        base.serverInfo(),
        base.toolNames(),
        base.toolAnnotations());
  }

  static Stream<Arguments> capabilityPairs() {
    return Stream.of(
        arguments(
            "same object, other member order",
            obj("a", true, "b", obj()),
            obj("b", obj(), "a", true),
            true),
        arguments("true vs false", obj("a", true), obj("a", false), false),
        arguments("string vs other string", obj("a", "x"), obj("a", "y"), true),
        arguments("int vs string", obj("a", 1), obj("a", "1"), true),
        arguments("double vs int", obj("a", 1.5), obj("a", 2), true),
        arguments(
            "NaN vs Infinity", obj("a", Double.NaN), obj("a", Double.NEGATIVE_INFINITY), true),
        arguments("null member vs string", obj("a", null), obj("a", "s"), true),
        arguments("null member vs false", obj("a", null), obj("a", false), false),
        arguments("true vs 1", obj("a", true), obj("a", 1), false),
        arguments("arrays of different length", obj("a", arr(1)), obj("a", arr(1, 2)), true),
        arguments(
            "arrays of different content", obj("a", arr()), obj("a", arr(obj("x", true))), true),
        arguments("booleans inside arrays", obj("a", arr(true)), obj("a", arr(false)), true),
        arguments(
            "null element vs string element",
            obj("a", arr((Object) null)),
            obj("a", arr("s")),
            true),
        arguments("nested object vs scalar", obj("a", obj()), obj("a", "x"), false),
        arguments("nested object vs array", obj("a", obj()), obj("a", arr()), false),
        arguments(
            "empty vs non-empty nested object", obj("a", obj()), obj("a", obj("b", true)), false),
        arguments("absent vs present key", obj(), obj("a", null), false),
        arguments(
            "deep boolean flip",
            obj("a", obj("b", obj("c", true))),
            obj("a", obj("b", obj("c", false))),
            false),
        arguments("top-level null vs {}", null, obj(), false),
        arguments("top-level null vs null", null, null, true),
        arguments("{} vs {}", obj(), obj(), true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("capabilityPairs")
  void capabilitiesCompareByShape(
      String label, @Nullable Map<String, ?> x, @Nullable Map<String, ?> y, boolean equal) {
    assertCompares(withCapabilities(x), withCapabilities(y), equal ? SAME : INITIALIZE);
  }

  static Stream<Arguments> serverInfoPairs() {
    return Stream.of(
        arguments("{} vs {}", obj(), obj(), true),
        arguments("{} vs a name", obj(), obj("name", "s"), false),
        arguments("other name value", obj("name", "a"), obj("name", "b"), true),
        arguments(
            "other version value",
            obj("name", "s", "version", "1"),
            obj("name", "s", "version", "2"),
            true),
        arguments("extra member", obj("name", "s"), obj("name", "s", "version", "1"), false),
        arguments("other member name", obj("name", "s"), obj("title", "s"), false),
        arguments("string vs object member", obj("icons", "x"), obj("icons", obj()), false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("serverInfoPairs")
  void serverInfoComparesByShapeWithEmptyAsAbsent(
      String label, Map<String, ?> x, Map<String, ?> y, boolean equal) {
    Answer base = baseline();
    Answer a = legacy(base.capabilities(), "v", x, base.toolNames(), base.toolAnnotations());
    Answer b = legacy(base.capabilities(), "v", y, base.toolNames(), base.toolAnnotations());
    assertCompares(a, b, equal ? SAME : INITIALIZE);
  }

  @Test
  void emptyServerInfoEqualsAbsentAndNonObjectServerInfo() {
    List<Object> tools = List.of(tool("t", null));
    Answer empty = Answers.legacy(obj("capabilities", obj(), "serverInfo", obj()), tools);
    Answer absent = Answers.legacy(obj("capabilities", obj()), tools);
    Answer notObject = Answers.legacy(obj("capabilities", obj(), "serverInfo", "srv"), tools);
    Answer named =
        Answers.legacy(obj("capabilities", obj(), "serverInfo", obj("name", "s")), tools);

    assertCompares(empty, absent, SAME);
    assertCompares(empty, notObject, SAME);
    assertCompares(absent, notObject, SAME);
    assertCompares(empty, named, INITIALIZE);
  }

  static Stream<Arguments> protocolVersionPairs() {
    return Stream.of(
        arguments("both absent", obj(), obj(), true),
        arguments("\"\" vs absent", obj("protocolVersion", ""), obj(), true),
        arguments("non-string vs absent", obj("protocolVersion", 20241105), obj(), true),
        arguments(
            "same version",
            obj("protocolVersion", "2024-11-05"),
            obj("protocolVersion", "2024-11-05"),
            true),
        arguments(
            "different versions",
            obj("protocolVersion", "2024-11-05"),
            obj("protocolVersion", "2025-03-26"),
            false),
        arguments(
            "\"\" vs a version",
            obj("protocolVersion", ""),
            obj("protocolVersion", "2024-11-05"),
            false),
        arguments(
            "compared raw, not projected",
            obj("protocolVersion", "x"),
            obj("protocolVersion", "y"),
            false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("protocolVersionPairs")
  void protocolVersionComparesRaw(
      String label, Map<String, Object> x, Map<String, Object> y, boolean equal) {
    List<Object> tools = List.of(tool("t", obj("readOnlyHint", true)));
    x.put("capabilities", obj("tools", obj()));
    y.put("capabilities", obj("tools", obj()));
    assertCompares(Answers.legacy(x, tools), Answers.legacy(y, tools), equal ? SAME : INITIALIZE);
  }

  private static Answer withTools(List<?> names, List<?> annotations) {
    Answer base = baseline();
    return legacy(
        base.capabilities(), base.protocolVersion(), base.serverInfo(), names, annotations);
  }

  static Stream<Arguments> namePairs() {
    return Stream.of(
        arguments("same order", List.of("a", "b"), List.of("a", "b"), true),
        arguments("other order", List.of("a", "b"), List.of("b", "a"), true),
        arguments("duplicates collapse", List.of("a", "a"), List.of("a"), true),
        arguments("duplicates, other order", List.of("a", "b", "a"), List.of("b", "a"), true),
        arguments("both empty", List.of(), List.of(), true),
        arguments("one more", List.of("a"), List.of("a", "b"), false),
        arguments("empty vs one", List.of(), List.of("a"), false),
        arguments("case matters", List.of("a"), List.of("A"), false),
        arguments("same size, other name", List.of("a", "b"), List.of("a", "c"), false),
        arguments("above the BMP", List.of("\uD83D\uDE00"), List.of("\uD83D\uDE01"), false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("namePairs")
  void toolNamesCompareAsASet(String label, List<?> x, List<?> y, boolean equal) {
    List<?> annotations = List.of(obj("readOnlyHint", true));
    assertCompares(withTools(x, annotations), withTools(y, annotations), equal ? SAME : TOOLS);
  }

  static Stream<Arguments> annotationPairs() {
    Map<String, ?> ro = obj("readOnlyHint", true, "title", "Read");
    Map<String, ?> rw = obj("readOnlyHint", false, "destructiveHint", true);
    return Stream.of(
        arguments("same order", List.of(ro, rw), List.of(ro, rw), true),
        arguments("other order", List.of(ro, rw), List.of(rw, ro), true),
        arguments(
            "free-form values collapse",
            List.of(obj("title", "A")),
            List.of(obj("title", "B")),
            true),
        arguments(
            "member order inside",
            List.of(obj("a", true, "b", false)),
            List.of(obj("b", false, "a", true)),
            true),
        arguments("duplicates count", List.of(ro, ro), List.of(ro), false),
        arguments(
            "same size, same set, other multiplicities",
            List.of(ro, ro, rw),
            List.of(ro, rw, rw),
            false),
        arguments(
            "flag flip",
            List.of(obj("readOnlyHint", true)),
            List.of(obj("readOnlyHint", false)),
            false),
        arguments(
            "extra key",
            List.of(obj("readOnlyHint", true)),
            List.of(obj("readOnlyHint", true, "title", "x")),
            false),
        arguments("{} vs none", List.of(obj()), List.of(), false),
        arguments("{} vs {}", List.of(obj()), List.of(obj()), true),
        arguments("both none", List.of(), List.of(), true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("annotationPairs")
  void annotationsCompareAsAMultisetOfShapes(String label, List<?> x, List<?> y, boolean equal) {
    List<?> names = List.of("a", "b");
    assertCompares(withTools(names, x), withTools(names, y), equal ? SAME : TOOLS);
  }

  @Test
  void annotationsAreNeverPairedWithNames() {
    Map<String, ?> ro = obj("readOnlyHint", true);
    Map<String, ?> destructive = obj("destructiveHint", true);
    Answer a = Answers.legacy(obj(), List.of(tool("read", ro), tool("drop", destructive)));
    Answer swapped = Answers.legacy(obj(), List.of(tool("read", destructive), tool("drop", ro)));
    Answer otherSubset = Answers.legacy(obj(), List.of(tool("read", null), tool("drop", ro)));
    Answer firstSubset = Answers.legacy(obj(), List.of(tool("read", ro), tool("drop", null)));
    Answer otherShape =
        Answers.legacy(obj(), List.of(tool("read", null), tool("drop", destructive)));

    assertCompares(a, swapped, SAME);
    assertCompares(firstSubset, otherSubset, SAME);
    assertCompares(firstSubset, otherShape, TOOLS);
  }

  @Test
  void emptyToolListsAreEqual() {
    Answer a = Answers.legacy(obj("capabilities", obj()), List.of());
    assertCompares(a, Answers.legacy(obj("capabilities", obj()), List.of()), SAME);
    assertCompares(a, Answers.legacy(obj("capabilities", obj()), List.of(tool("t", null))), TOOLS);
  }

  static Stream<Arguments> malformedNames() {
    return Stream.of(
        arguments("number", 123),
        arguments("true", true),
        arguments("array", arr(1)),
        arguments("object", obj("a", 1)),
        arguments("double", 1.5));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformedNames")
  void aNonStringNameOnEitherSideMeansTheServerCouldNotBeMeasured(String label, Object name) {
    Answer good = baseline();
    Answer bad = withTools(List.of("read", name), good.toolAnnotations());
    Answer badAndDifferent =
        legacy(obj("other", true), "x", obj("v", 1), List.of(name), List.of(obj()));

    assertCompares(good, bad, MALFORMED);
    assertCompares(bad, bad, MALFORMED);
    assertCompares(good, badAndDifferent, MALFORMED);
  }

  @Test
  void malformedNamesComeFromTheListingUnfiltered() {
    Answer a = Answers.legacy(obj(), List.of(tool(123, null), tool("ok", null)));
    Answer b = Answers.legacy(obj(), List.of(tool("ok", null)));
    Answer falsy =
        Answers.legacy(obj(), List.of(tool(0, null), tool(false, null), tool("ok", null)));

    assertThat(new ArrayList<Object>(a.toolNames())).containsExactly(123, "ok");
    assertCompares(a, b, MALFORMED);
    assertCompares(falsy, b, SAME);
  }

  @Test
  void eachFacetPartDiffersOnItsOwn() {
    Answer base = baseline();
    Map<String, ?> caps = base.capabilities();
    String pv = base.protocolVersion();
    Map<String, ?> info = base.serverInfo();
    List<?> names = base.toolNames();
    List<?> ann = base.toolAnnotations();

    assertCompares(base, legacy(caps, pv, info, names, ann), SAME);
    assertCompares(base, legacy(obj("tools", obj()), pv, info, names, ann), INITIALIZE);
    assertCompares(base, legacy(caps, "2024-11-05", info, names, ann), INITIALIZE);
    assertCompares(base, legacy(caps, pv, obj("name", "srv"), names, ann), INITIALIZE);
    assertCompares(base, legacy(caps, pv, info, List.of("read"), ann), TOOLS);
    assertCompares(base, legacy(caps, pv, info, names, List.of()), TOOLS);
  }

  @Test
  void theFirstDifferingFacetNamesTheDetail() {
    Answer base = baseline();
    Answer both = legacy(null, "", Map.of(), List.of("other"), List.of());
    assertCompares(base, both, INITIALIZE);

    Answer modernA =
        modern(obj("tools", obj()), List.of("2026-07-28"), Map.of(), List.of("a"), List.of());
    Answer modernB =
        modern(
            obj("tools", obj("listChanged", true)),
            List.of("2026-07-28"),
            Map.of(),
            List.of("b"),
            List.of());
    assertCompares(modernA, modernB, DISCOVER);
  }

  static Stream<Arguments> supportedVersionPairs() {
    return Stream.of(
        arguments("same", List.of("2026-07-28"), List.of("2026-07-28"), true),
        arguments(
            "duplicates collapse",
            List.of("2026-07-28", "2026-07-28"),
            List.of("2026-07-28"),
            true),
        arguments("other order", List.of("a", "b"), List.of("b", "a"), true),
        arguments("one more", List.of("a"), List.of("a", "b"), false),
        arguments("raw values, not shapes", List.of("x"), List.of("y"), false),
        arguments("number vs string", List.of(1), List.of("1"), false),
        arguments(
            "objects canonicalised",
            List.of(obj("b", 1, "a", 2)),
            List.of(obj("a", 2, "b", 1)),
            true),
        arguments("array order inside an element", List.of(arr(1, 2)), List.of(arr(2, 1)), false),
        arguments("both empty", List.of(), List.of(), true),
        arguments("empty vs one", List.of(), List.of("2026-07-28"), false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("supportedVersionPairs")
  void supportedVersionsCompareAsASetOfCanonicalTexts(
      String label, List<?> x, List<?> y, boolean equal) {
    Map<String, ?> caps = obj("tools", obj());
    Map<String, ?> info = obj("name", "s");
    List<?> names = List.of("t");
    assertCompares(
        modern(caps, x, info, names, List.of()),
        modern(caps, y, info, names, List.of()),
        equal ? SAME : DISCOVER);
  }

  @Test
  void modernFacetsCoverCapabilitiesServerInfoAndTools() {
    List<Object> tools = List.of(tool("t", obj("readOnlyHint", true)));
    Map<String, Object> result =
        obj(
            "capabilities",
            obj("tools", obj()),
            "supportedVersions",
            arr("2026-07-28"),
            "_meta",
            obj(Answers.SERVER_INFO_META_KEY, obj("name", "s", "version", "1")));
    Answer a = Answers.modern(result, tools);

    assertCompares(a, Answers.modern(result, tools), SAME);
    assertCompares(
        a,
        Answers.modern(
            obj("capabilities", obj("tools", obj()), "supportedVersions", arr("2026-07-28")),
            tools),
        DISCOVER);
    assertCompares(
        a,
        Answers.modern(
            obj(
                "capabilities",
                obj("tools", obj("listChanged", false)),
                "supportedVersions",
                arr("2026-07-28"),
                "_meta",
                result.get("_meta")),
            tools),
        DISCOVER);
    assertCompares(
        a, Answers.modern(result, List.of(tool("t", obj("readOnlyHint", false)))), TOOLS);
  }

  @Test
  void theModernProtocolVersionIsNotCompared() {
    Answer a =
        new Answer(Era.MODERN, obj(), "2026-07-28", List.of("v"), Map.of(), List.of(), List.of());
    Answer b = new Answer(Era.MODERN, obj(), "", List.of("v"), Map.of(), List.of(), List.of());
    assertCompares(a, b, SAME);
  }

  @Test
  void legacyAnswersIgnoreSupportedVersions() {
    Answer a = new Answer(Era.LEGACY, obj(), "v", List.of("x"), Map.of(), List.of(), List.of());
    Answer b = new Answer(Era.LEGACY, obj(), "v", List.of(), Map.of(), List.of(), List.of());
    assertCompares(a, b, SAME);
  }

  @Test
  void mixedErasDifferInTheHandshakeFacetOfTheFirstAnswersEra() {
    // With --era modern, one identity's discover can be answered and the other's rejected.
    Answer legacyAnswer = legacy(obj(), "2024-11-05", Map.of(), List.of(), List.of());
    Answer modernAnswer = modern(obj(), List.of(), Map.of(), List.of(), List.of());

    assertThat(HandshakeComparison.compare(legacyAnswer, modernAnswer)).isEqualTo(INITIALIZE);
    assertThat(HandshakeComparison.compare(modernAnswer, legacyAnswer).detail())
        .isEqualTo(HandshakeComparison.DISCOVER_SHAPE_DIFFERS);
  }

  @ParameterizedTest(name = "depth={0}")
  @ValueSource(ints = {10_000, 100_000})
  void deeplyNestedCapabilitiesCompareWithoutExhaustingTheStack(int depth) {
    Answer base = baseline();
    Answer a = withCapabilities(nestedObjects(depth, obj("flag", true, "id", "x")));
    Answer same = withCapabilities(nestedObjects(depth, obj("id", 7, "flag", true)));
    Answer extraKey = withCapabilities(nestedObjects(depth, obj("flag", true, "id", "x", "z", 1)));
    Answer flipped = withCapabilities(nestedObjects(depth, obj("flag", false, "id", "x")));
    Answer shallower = withCapabilities(nestedObjects(depth - 1, obj("flag", true, "id", "x")));
    Answer arrays = withCapabilities(obj("a", nestedArrays(depth, true)));

    assertThat(HandshakeComparison.compare(a, a)).isEqualTo(SAME);
    assertThat(HandshakeComparison.compare(a, same)).isEqualTo(SAME);
    assertThat(HandshakeComparison.compare(a, extraKey)).isEqualTo(INITIALIZE);
    assertThat(HandshakeComparison.compare(a, flipped)).isEqualTo(INITIALIZE);
    assertThat(HandshakeComparison.compare(a, shallower)).isEqualTo(INITIALIZE);
    assertThat(HandshakeComparison.compare(arrays, withCapabilities(obj("a", "x"))))
        .isEqualTo(SAME);
    assertThat(HandshakeComparison.compare(base, a)).isEqualTo(INITIALIZE);
  }

  @ParameterizedTest(name = "depth={0}")
  @ValueSource(ints = {10_000, 100_000})
  void deeplyNestedServerInfoAndAnnotationsCompareWithoutExhaustingTheStack(int depth) {
    Answer base = baseline();
    Map<String, Object> deepInfo = nestedObjects(depth, obj("version", "1"));
    Map<String, Object> deepInfoOtherValue = nestedObjects(depth, obj("version", "2"));
    Map<String, Object> deepInfoOtherKey = nestedObjects(depth, obj("title", "2"));
    Answer infoA = legacy(base.capabilities(), "v", deepInfo, List.of(), List.of());
    Answer infoB = legacy(base.capabilities(), "v", deepInfoOtherValue, List.of(), List.of());
    Answer infoC = legacy(base.capabilities(), "v", deepInfoOtherKey, List.of(), List.of());

    assertThat(HandshakeComparison.compare(infoA, infoB)).isEqualTo(SAME);
    assertThat(HandshakeComparison.compare(infoA, infoC)).isEqualTo(INITIALIZE);

    Answer annA = withTools(List.of("t"), List.of(nestedObjects(depth, obj("readOnlyHint", true))));
    Answer annB = withTools(List.of("t"), List.of(nestedObjects(depth, obj("readOnlyHint", true))));
    Answer annC =
        withTools(List.of("t"), List.of(nestedObjects(depth, obj("readOnlyHint", false))));

    assertThat(HandshakeComparison.compare(annA, annB)).isEqualTo(SAME);
    assertThat(HandshakeComparison.compare(annA, annC)).isEqualTo(TOOLS);
  }

  @ParameterizedTest(name = "depth={0}")
  @ValueSource(ints = {10_000, 100_000})
  void deeplyNestedSupportedVersionsCompareWithoutExhaustingTheStack(int depth) {
    Answer a =
        modern(obj(), List.of(nestedArrays(depth, "2026-07-28")), Map.of(), List.of(), List.of());
    Answer b =
        modern(obj(), List.of(nestedArrays(depth, "2026-07-28")), Map.of(), List.of(), List.of());
    Answer c =
        modern(obj(), List.of(nestedArrays(depth, "2026-07-29")), Map.of(), List.of(), List.of());

    assertThat(HandshakeComparison.compare(a, b)).isEqualTo(SAME);
    assertThat(HandshakeComparison.compare(a, c)).isEqualTo(DISCOVER);
  }
}
