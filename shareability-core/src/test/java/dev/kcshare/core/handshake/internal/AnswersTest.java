package dev.kcshare.core.handshake.internal;

import static dev.kcshare.core.handshake.Fixtures.arr;
import static dev.kcshare.core.handshake.Fixtures.obj;
import static dev.kcshare.core.handshake.Fixtures.tool;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.kcshare.core.handshake.Answer;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.json.JsonWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class AnswersTest {

  static Stream<Arguments> notObjects() {
    return Stream.of(
        arguments("null", null),
        arguments("string", "ok"),
        arguments("number", 1),
        arguments("boolean", true),
        arguments("array", arr(obj("capabilities", obj()))));
  }

  @Test
  void legacyResultObjectIsReadMemberByMember() {
    Map<String, Object> caps = obj("tools", obj("listChanged", true));
    Map<String, Object> info = obj("name", "srv", "version", "2.1.0");
    Answer a =
        Answers.legacy(
            obj(
                "protocolVersion",
                "2025-03-26",
                "capabilities",
                caps,
                "serverInfo",
                info,
                "instructions",
                "ignored"),
            List.of());

    assertThat(a.era()).isEqualTo(Era.LEGACY);
    assertThat(a.capabilities()).isEqualTo(caps);
    assertThat(a.protocolVersion()).isEqualTo("2025-03-26");
    assertThat(a.serverInfo()).isEqualTo(info);
    assertThat(a.supportedVersions()).isEmpty();
    assertThat(a.reportedVersion()).isEqualTo("2.1.0");
  }

  static Stream<Arguments> wrongMemberTypes() {
    return Stream.of(
        arguments("absent", false, null),
        arguments("null", true, null),
        arguments("string", true, "x"),
        arguments("number", true, 5),
        arguments("boolean", true, false),
        arguments("array", true, arr(obj("a", true))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("wrongMemberTypes")
  void legacyMembersOfTheWrongTypeDeclareNothing(
      String label, boolean present, @Nullable Object value) {
    Map<String, @Nullable Object> result = obj();
    if (present) {
      result.put("capabilities", value);
      // A string is a valid protocolVersion; its wrong-type case is a number instead.
      result.put("protocolVersion", value instanceof String ? 20250326 : value);
      result.put("serverInfo", value);
    }
    Answer a = Answers.legacy(result, List.of());

    assertThat(a.capabilities()).isEqualTo(Map.of());
    assertThat(a.protocolVersion()).isEmpty();
    assertThat(a.serverInfo()).isEqualTo(Map.of());
    assertThat(a.reportedVersion()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("notObjects")
  void legacyResultThatIsNotAnObjectObservesNoHandshake(String label, @Nullable Object result) {
    Answer a = Answers.legacy(result, List.of(tool("t", null)));

    assertThat(a.capabilities()).isNull();
    assertThat(a.protocolVersion()).isEmpty();
    assertThat(a.serverInfo()).isEqualTo(Map.of());
    assertThat(new ArrayList<Object>(a.toolNames())).containsExactly("t");
  }

  @Test
  void reportedVersionIsTheServerInfoVersionOnlyWhenAString() {
    assertThat(Answers.legacy(obj("serverInfo", obj("version", 5)), List.of()).reportedVersion())
        .isEmpty();
    assertThat(Answers.legacy(obj("serverInfo", obj("name", "s")), List.of()).reportedVersion())
        .isEmpty();
    assertThat(Answers.legacy(obj("serverInfo", obj("version", "")), List.of()).reportedVersion())
        .isEmpty();
    assertThat(
            Answers.legacy(obj("serverInfo", obj("version", "0.9")), List.of()).reportedVersion())
        .isEqualTo("0.9");
  }

  @Test
  void modernResultObjectIsReadMemberByMember() {
    Map<String, Object> caps = obj("tools", obj());
    Map<String, Object> info = obj("name", "srv", "version", "3.0.0");
    List<Object> supported = arr("2026-07-28", 1, obj("x", null), null);
    Answer a =
        Answers.modern(
            obj(
                "capabilities",
                caps,
                "supportedVersions",
                supported,
                "serverInfo",
                obj("name", "top-level serverInfo is not where modern servers put it"),
                "_meta",
                obj(Answers.SERVER_INFO_META_KEY, info, "other", 1)),
            List.of());

    assertThat(a.era()).isEqualTo(Era.MODERN);
    assertThat(a.capabilities()).isEqualTo(caps);
    assertThat(a.protocolVersion()).isEqualTo("2026-07-28");
    assertThat(new ArrayList<Object>(a.supportedVersions())).isEqualTo(supported);
    assertThat(a.serverInfo()).isEqualTo(info);
    assertThat(a.reportedVersion()).isEqualTo("3.0.0");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("wrongMemberTypes")
  void modernMembersOfTheWrongTypeDeclareNothing(
      String label, boolean present, @Nullable Object value) {
    Map<String, @Nullable Object> result = obj();
    Map<String, @Nullable Object> metaWithWrongServerInfo = obj();
    if (present) {
      result.put("capabilities", value);
      result.put("supportedVersions", value instanceof List<?> ? "2026-07-28" : value);
      metaWithWrongServerInfo.put(Answers.SERVER_INFO_META_KEY, value);
    }
    Answer a = Answers.modern(result, List.of());
    result.put("_meta", metaWithWrongServerInfo);
    Answer withMeta = Answers.modern(result, List.of());
    result.put("_meta", value);
    Answer wrongMeta = Answers.modern(result, List.of());

    for (Answer answer : List.of(a, withMeta, wrongMeta)) {
      assertThat(answer.capabilities()).isEqualTo(Map.of());
      assertThat(answer.supportedVersions()).isEmpty();
      assertThat(answer.serverInfo()).isEqualTo(Map.of());
      assertThat(answer.protocolVersion()).isEqualTo("2026-07-28");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("notObjects")
  void modernResultThatIsNotAnObjectObservesNoHandshake(String label, @Nullable Object result) {
    Answer a = Answers.modern(result, List.of());

    assertThat(a.capabilities()).isNull();
    assertThat(a.supportedVersions()).isEmpty();
    assertThat(a.serverInfo()).isEqualTo(Map.of());
    assertThat(a.protocolVersion()).isEqualTo("2026-07-28");
  }

  @Test
  void toolNamesAreTheTruthyNamesOfObjectElementsKeptRaw() {
    List<@Nullable Object> tools =
        arr(
            tool("read", null),
            tool(123, null),
            tool(true, null),
            tool(arr(1), null),
            tool(obj("a", 1), null),
            tool(-1, null),
            tool("read", null),
            tool("", null),
            tool(null, null),
            tool(false, null),
            tool(0, null),
            tool(0.0, null),
            tool(arr(), null),
            tool(obj(), null),
            obj("description", "no name"),
            "read",
            null,
            7,
            arr(tool("nested", null)));

    Answer a = Answers.legacy(obj(), tools);

    assertThat(new ArrayList<Object>(a.toolNames()))
        .containsExactly("read", 123, true, arr(1), obj("a", 1), -1, "read");
    assertThat(a.hasTools()).isTrue();
  }

  @Test
  void toolAnnotationsAreTheAnnotationObjectsIndependentOfNames() {
    Map<String, Object> ro = obj("readOnlyHint", true);
    Map<String, Object> empty = obj();
    List<@Nullable Object> tools =
        arr(
            tool("", ro),
            tool(null, empty),
            tool("a", null),
            obj("name", "b", "annotations", null),
            obj("name", "c", "annotations", arr(ro)),
            obj("name", "d", "annotations", "readOnly"),
            obj("name", "e", "annotations", true),
            obj("annotations", ro),
            "not a tool");

    Answer a = Answers.legacy(obj(), tools);

    assertThat(new ArrayList<Object>(a.toolAnnotations())).containsExactly(ro, empty, ro);
    assertThat(new ArrayList<Object>(a.toolNames())).containsExactly("a", "b", "c", "d", "e");
  }

  @Test
  void noToolsMeansNoNamesAndNoAnnotations() {
    Answer a = Answers.modern(obj(), List.of());
    assertThat(a.toolNames()).isEmpty();
    assertThat(a.toolAnnotations()).isEmpty();
    assertThat(a.hasTools()).isFalse();
    assertThat(Answers.legacy(obj(), List.of(tool("", null))).hasTools()).isFalse();
  }

  @Test
  void inputsAreNotMutated() {
    Map<String, Object> result =
        obj(
            "capabilities",
            obj("b", true, "a", arr()),
            "serverInfo",
            obj("name", "s"),
            "_meta",
            obj(Answers.SERVER_INFO_META_KEY, obj("v", 1)),
            "supportedVersions",
            arr("x"));
    List<Object> tools = arr(tool("t", obj("readOnlyHint", true)), tool(0, null), "junk");
    String before = JsonWriter.compact(List.of(result, tools));

    Answers.legacy(result, tools);
    Answers.modern(result, tools);
    Answers.toolsOf(obj("tools", tools));

    assertThat(JsonWriter.compact(List.of(result, tools))).isEqualTo(before);
  }

  static Stream<Arguments> toolsLists() {
    List<Object> tools = arr(tool("t", null));
    return Stream.of(
        arguments("result null", null, null),
        arguments("result a string", "tools", null),
        arguments("result an array", arr(tools), null),
        arguments("no tools member", obj("nextCursor", "x"), null),
        arguments("tools null", obj("tools", null), null),
        arguments("tools an object", obj("tools", obj("t", tool("t", null))), null),
        arguments("tools a string", obj("tools", "t"), null),
        arguments("empty tools", obj("tools", arr()), arr()),
        arguments("tools beside a cursor", obj("tools", tools, "nextCursor", "c2"), tools));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("toolsLists")
  void toolsOfFindsTheToolsArrayOrNothing(
      String label, @Nullable Object result, @Nullable List<?> expected) {
    assertThat(Answers.toolsOf(result)).isEqualTo(expected);
  }
}
