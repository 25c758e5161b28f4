package dev.kcshare.core.handshake;

import static dev.kcshare.core.handshake.Fixtures.arr;
import static dev.kcshare.core.handshake.Fixtures.nestedArrays;
import static dev.kcshare.core.handshake.Fixtures.nestedObjects;
import static dev.kcshare.core.handshake.Fixtures.obj;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.kcshare.core.json.JsonWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
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

final class ShapesTest {

  static Stream<Arguments> projections() {
    return Stream.of(
        arguments("top-level null", null, "null"),
        arguments("true", true, "true"),
        arguments("false", false, "false"),
        arguments("string", "build-1234", "\"*\""),
        arguments("empty string", "", "\"*\""),
        arguments("the marker itself", "*", "\"*\""),
        arguments("int", 42, "\"*\""),
        arguments("long", Long.MAX_VALUE, "\"*\""),
        arguments("double", 1.5, "\"*\""),
        arguments("NaN", Double.NaN, "\"*\""),
        arguments("Infinity", Double.POSITIVE_INFINITY, "\"*\""),
        arguments("-Infinity", Double.NEGATIVE_INFINITY, "\"*\""),
        arguments("BigInteger", new BigInteger("123456789012345678901234567890"), "\"*\""),
        arguments("BigDecimal", new BigDecimal("1.10"), "\"*\""),
        arguments("empty array", arr(), "\"*\""),
        arguments("array with content", arr(1, obj("a", true), null), "\"*\""),
        arguments("empty object", obj(), "{}"),
        arguments("members sorted", obj("b", true, "a", "x"), "{\"a\":\"*\",\"b\":true}"),
        arguments("null member", obj("a", null), "{\"a\":\"*\"}"),
        arguments("array member", obj("a", arr(true)), "{\"a\":\"*\"}"),
        arguments(
            "nested objects",
            obj("tools", obj("listChanged", false, "x", obj()), "logging", obj()),
            "{\"logging\":{},\"tools\":{\"listChanged\":false,\"x\":{}}}"),
        arguments(
            "code point order, not UTF-16 order",
            obj("\uD83D\uDE00", true, "\uFFFF", false, "z", 1),
            "{\"z\":\"*\",\"\\uffff\":false,\"\\ud83d\\ude00\":true}"),
        arguments(
            "keys needing escapes",
            obj("a\"b", true, "c\\d", false, "e\nf", 1, "\u0000", 2),
            "{\"\\u0000\":\"*\",\"a\\\"b\":true,\"c\\\\d\":false,\"e\\nf\":\"*\"}"),
        arguments("empty key", obj("", true), "{\"\":true}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("projections")
  void projectsEveryJsonType(String label, @Nullable Object value, String expected) {
    assertThat(Shapes.canonical(Shapes.shape(value))).isEqualTo(expected);
    assertThat(Shapes.canonicalShape(value)).isEqualTo(expected);
  }

  @Test
  void shapeKeepsMemberNamesInInputOrderAndProjectsValues() {
    Object shape = Shapes.shape(obj("b", "x", "a", obj("c", true, "d", arr())));

    assertThat(shape).isInstanceOf(Map.class);
    assertThat(new ArrayList<Object>(((Map<?, ?>) shape).keySet())).containsExactly("b", "a");
    assertThat(shape).isEqualTo(obj("b", "*", "a", obj("c", true, "d", "*")));
  }

  @Test
  void topLevelNullStaysNullAndScalarsBecomeTheMarker() {
    assertThat(Shapes.shape(null)).isNull();
    assertThat(Shapes.shape(true)).isEqualTo(true);
    assertThat(Shapes.shape(false)).isEqualTo(false);
    assertThat(Shapes.shape("tok")).isEqualTo(Shapes.MARKER);
    assertThat(Shapes.shape(7)).isEqualTo(Shapes.MARKER);
    assertThat(Shapes.shape(List.of(true))).isEqualTo(Shapes.MARKER);
  }

  static Stream<Arguments> equalities() {
    return Stream.of(
        arguments("true vs 1", obj("a", true), obj("a", 1), false),
        arguments("null vs false", obj("a", null), obj("a", false), false),
        arguments("true vs false", obj("a", true), obj("a", false), false),
        arguments("nested object vs scalar", obj("a", obj()), obj("a", "x"), false),
        arguments("absent vs present key", obj(), obj("a", null), false),
        arguments("top-level null vs {}", null, obj(), false),
        arguments("null vs string", obj("a", null), obj("a", "s"), true),
        arguments("string vs number", obj("a", "1"), obj("a", 1), true),
        arguments("NaN vs number", obj("a", Double.NaN), obj("a", 0), true),
        arguments("arrays of different length", obj("a", arr(1)), obj("a", arr(1, 2)), true),
        arguments("arrays with booleans", obj("a", arr(true)), obj("a", arr(false)), true),
        arguments("array vs string", obj("a", arr()), obj("a", "x"), true),
        arguments("member order", obj("a", true, "b", false), obj("b", false, "a", true), true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("equalities")
  void equalShapesHaveEqualCanonicalTexts(
      String label, @Nullable Object x, @Nullable Object y, boolean equal) {
    assertThat(Shapes.canonicalShape(x).equals(Shapes.canonicalShape(y))).isEqualTo(equal);
    assertThat(Shapes.canonical(Shapes.shape(x)).equals(Shapes.canonical(Shapes.shape(y))))
        .isEqualTo(equal);
    assertThat(Shapes.sameShape(x, y)).isEqualTo(equal);
    assertThat(Shapes.sameShape(y, x)).isEqualTo(equal);
  }

  static Stream<Arguments> topLevelPairs() {
    return Stream.of(
        arguments("null vs null", null, null, true),
        arguments("null vs string", null, "x", false),
        arguments("null vs false", null, false, false),
        arguments("string vs number", "x", 1, true),
        arguments("string vs array", "x", arr(), true),
        arguments("true vs true", true, true, true),
        arguments("true vs false", true, false, false),
        arguments("true vs marker", true, "*", false),
        arguments("object vs string", obj(), "x", false),
        arguments("object vs null", obj(), null, false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("topLevelPairs")
  void sameShapeAgreesWithCanonicalTextsAtTopLevel(
      String label, @Nullable Object x, @Nullable Object y, boolean equal) {
    assertThat(Shapes.canonicalShape(x).equals(Shapes.canonicalShape(y))).isEqualTo(equal);
    assertThat(Shapes.sameShape(x, y)).isEqualTo(equal);
    assertThat(Shapes.sameShape(y, x)).isEqualTo(equal);
  }

  @Test
  void inputsAreNotMutated() {
    Map<String, @Nullable Object> value =
        obj("b", arr(1, obj("x", true)), "a", obj("c", null, "d", "s"));
    String before = JsonWriter.compact(value);

    Shapes.shape(value);
    Shapes.canonicalShape(value);

    assertThat(JsonWriter.compact(value)).isEqualTo(before);
  }

  @ParameterizedTest(name = "depth={0}")
  @ValueSource(ints = {10_000, 100_000})
  void deepObjectsAreProjectedWithoutExhaustingTheStack(int depth) {
    Map<String, Object> value = nestedObjects(depth, Map.of("flag", true, "id", "x"));
    String expected = "{\"a\":".repeat(depth) + "{\"flag\":true,\"id\":\"*\"}" + "}".repeat(depth);

    String fused = Shapes.canonicalShape(value);
    String viaTree = Shapes.canonical(Shapes.shape(value));

    assertThat(fused.length()).isEqualTo(expected.length());
    assertThat(fused.equals(expected)).as("fused canonical shape").isTrue();
    assertThat(viaTree.equals(expected)).as("canonical(shape(value))").isTrue();
    assertThat(Shapes.sameShape(value, nestedObjects(depth, Map.of("id", 1, "flag", true))))
        .isTrue();
    assertThat(Shapes.sameShape(value, nestedObjects(depth, Map.of("id", 1, "flag", false))))
        .isFalse();
    assertThat(Shapes.sameShape(value, nestedObjects(depth, Map.of("id", 1)))).isFalse();
    assertThat(Shapes.sameShape(value, nestedObjects(depth + 1, Map.of("flag", true, "id", 1))))
        .isFalse();
  }

  @ParameterizedTest(name = "depth={0}")
  @ValueSource(ints = {10_000, 100_000})
  void deepArraysCollapseToTheMarker(int depth) {
    List<Object> value = nestedArrays(depth, Map.of("flag", true));

    assertThat(Shapes.canonicalShape(value)).isEqualTo("\"*\"");
    assertThat(Shapes.canonicalShape(obj("x", value))).isEqualTo("{\"x\":\"*\"}");
    assertThat(Shapes.shape(obj("x", value))).isEqualTo(obj("x", "*"));
  }
}
