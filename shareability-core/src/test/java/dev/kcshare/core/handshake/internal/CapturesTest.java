package dev.kcshare.core.handshake.internal;

import static dev.kcshare.core.handshake.Fixtures.arr;
import static dev.kcshare.core.handshake.Fixtures.obj;
import static dev.kcshare.core.handshake.Fixtures.tool;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.kcshare.core.handshake.Answer;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.core.json.internal.JsonInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class CapturesTest {
  private static final Map<String, Object> CLIENT_A =
      obj("name", "kirocrew-preflight-a", "version", "1.0.0");

  private static Map<String, @Nullable Object> initializeResult() {
    return obj(
        "protocolVersion", "2025-03-26",
        "capabilities", obj("tools", obj("listChanged", true)),
        "serverInfo", obj("name", "srv", "version", "1.2.3"));
  }

  private static List<@Nullable Object> tools() {
    return arr(tool("read", obj("readOnlyHint", true)), tool("write", null), tool(7, null));
  }

  @Test
  void legacyCaptureReadsAsTheLiveAnswer() {
    Map<String, @Nullable Object> capture =
        obj(
            "era",
            "legacy",
            "clientInfo",
            CLIENT_A,
            "initialize",
            initializeResult(),
            "toolsList",
            obj("tools", tools(), "nextCursor", null));

    assertThat(Captures.toAnswer(capture, ""))
        .isEqualTo(Answers.legacy(initializeResult(), tools()));
  }

  @Test
  void eraAndClientInfoAreOptional() {
    Map<String, @Nullable Object> capture =
        obj("initialize", initializeResult(), "toolsList", obj("tools", tools()));
    Map<String, @Nullable Object> oddClientInfo =
        obj(
            "clientInfo",
            "informational only",
            "initialize",
            initializeResult(),
            "toolsList",
            obj("tools", tools()));

    assertThat(Captures.toAnswer(capture, ""))
        .isEqualTo(Answers.legacy(initializeResult(), tools()));
    assertThat(Captures.toAnswer(oddClientInfo, "")).isEqualTo(Captures.toAnswer(capture, ""));
  }

  @Test
  void modernCaptureReadsTheDiscoverResult() {
    Map<String, @Nullable Object> discover =
        obj(
            "capabilities",
            obj(),
            "supportedVersions",
            arr("2026-07-28"),
            "_meta",
            obj(Answers.SERVER_INFO_META_KEY, obj("name", "m", "version", "9")));
    Map<String, @Nullable Object> capture =
        obj(
            "era",
            "modern",
            "discover",
            discover,
            "initialize",
            initializeResult(),
            "toolsList",
            obj("tools", tools()));

    Answer answer = Captures.toAnswer(capture, "");

    // The capture's toolsList stands for the listing's pages: its hints (none here) are read.
    assertThat(answer)
        .isEqualTo(Answers.modern(discover, tools(), List.of(capture.get("toolsList"))));
    assertThat(answer.reportedVersion()).isEqualTo("9");
  }

  static Stream<Arguments> resultsThatAreNotObjects() {
    return Stream.of(arguments("null", null), arguments("string", "x"), arguments("array", arr()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("resultsThatAreNotObjects")
  void aResultThatIsNotAnObjectMeansNoHandshakeObserved(String label, @Nullable Object result) {
    Answer legacy =
        Captures.toAnswer(obj("initialize", result, "toolsList", obj("tools", tools())), "");
    Answer modern =
        Captures.toAnswer(
            obj("era", "modern", "discover", result, "toolsList", obj("tools", arr())), "");

    assertThat(legacy.capabilities()).isNull();
    assertThat(legacy.toolNames()).hasSize(3);
    assertThat(modern.capabilities()).isNull();
    assertThat(modern.era()).isEqualTo(Era.MODERN);
  }

  static Stream<Arguments> malformedCaptures() {
    Map<String, @Nullable Object> toolsList = obj("tools", arr());
    return Stream.of(
        arguments("capture null", null, "/3/a", "expected a capture object, got null"),
        arguments("capture an array", arr(), "/3/a", "expected a capture object, got an array"),
        arguments(
            "capture a string", "{}", "/3/a", "expected a capture object, got the string \"{}\""),
        arguments(
            "era a number",
            obj("era", 2026, "initialize", null, "toolsList", toolsList),
            "/3/a/era",
            "expected \"legacy\" or \"modern\", got a number"),
        arguments(
            "era null",
            obj("era", null, "initialize", null, "toolsList", toolsList),
            "/3/a/era",
            "expected \"legacy\" or \"modern\", got null"),
        arguments(
            "era in capitals",
            obj("era", "Legacy", "initialize", null, "toolsList", toolsList),
            "/3/a/era",
            "expected \"legacy\" or \"modern\", got the string \"Legacy\""),
        arguments(
            "era too long to quote",
            obj("era", "m\u00e9".repeat(30), "toolsList", toolsList),
            "/3/a/era",
            "expected \"legacy\" or \"modern\", got the string \""
                + "m\\u00e9".repeat(20)
                + "...\""),
        arguments(
            "initialize missing",
            obj("toolsList", toolsList),
            "/3/a/initialize",
            "expected the raw initialize result (legacy capture), got nothing"),
        arguments(
            "initialize missing, discover present",
            obj("discover", obj(), "toolsList", toolsList),
            "/3/a/initialize",
            "expected the raw initialize result (legacy capture), got nothing"),
        arguments(
            "discover missing",
            obj("era", "modern", "initialize", obj(), "toolsList", toolsList),
            "/3/a/discover",
            "expected the raw server/discover result (modern capture), got nothing"),
        arguments(
            "toolsList missing",
            obj("initialize", obj()),
            "/3/a/toolsList",
            "expected an object, got nothing"),
        arguments(
            "toolsList null",
            obj("initialize", obj(), "toolsList", null),
            "/3/a/toolsList",
            "expected an object, got null"),
        arguments(
            "toolsList an array",
            obj("initialize", obj(), "toolsList", arr()),
            "/3/a/toolsList",
            "expected an object, got an array"),
        arguments(
            "tools missing",
            obj("initialize", obj(), "toolsList", obj()),
            "/3/a/toolsList/tools",
            "expected an array, got nothing"),
        arguments(
            "tools null",
            obj("initialize", obj(), "toolsList", obj("tools", null)),
            "/3/a/toolsList/tools",
            "expected an array, got null"),
        arguments(
            "tools an object",
            obj("initialize", obj(), "toolsList", obj("tools", obj())),
            "/3/a/toolsList/tools",
            "expected an array, got an object"),
        arguments(
            "tools a boolean",
            obj("era", "modern", "discover", null, "toolsList", obj("tools", true)),
            "/3/a/toolsList/tools",
            "expected an array, got a boolean"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformedCaptures")
  void malformedCapturesNameTheMemberAtFault(
      String label, @Nullable Object capture, String pointer, String problem) {
    assertThatThrownBy(() -> Captures.toAnswer(capture, "/3/a"))
        .isInstanceOfSatisfying(
            JsonInputException.class,
            e -> {
              assertThat(e.pointer()).isEqualTo(pointer);
              assertThat(e.problem()).isEqualTo(problem);
            });
  }

  @Test
  void theRootPointerIsEmpty() {
    assertThatThrownBy(() -> Captures.toAnswer(obj("initialize", null), ""))
        .isInstanceOfSatisfying(
            JsonInputException.class, e -> assertThat(e.pointer()).isEqualTo("/toolsList"));
    assertThatThrownBy(() -> Captures.toAnswer(5, ""))
        .isInstanceOfSatisfying(
            JsonInputException.class,
            e ->
                assertThat(e.getMessage())
                    .isEqualTo("(root): expected a capture object, got a number"));
  }

  @Test
  void toCaptureWritesTheDocumentedMembersInOrder() {
    Map<String, Object> toolsList = obj("tools", tools(), "nextCursor", "");
    Map<String, @Nullable Object> legacy =
        Captures.toCapture(Era.LEGACY, CLIENT_A, initializeResult(), toolsList);
    Map<String, @Nullable Object> modern =
        Captures.toCapture(Era.MODERN, CLIENT_A, null, toolsList);

    assertThat(new ArrayList<>(legacy.keySet()))
        .containsExactly("era", "clientInfo", "initialize", "toolsList");
    assertThat(JsonWriter.compact(legacy))
        .isEqualTo(
            "{\"era\":\"legacy\",\"clientInfo\":"
                + JsonWriter.compact(CLIENT_A)
                + ",\"initialize\":"
                + JsonWriter.compact(initializeResult())
                + ",\"toolsList\":"
                + JsonWriter.compact(toolsList)
                + "}");
    assertThat(new ArrayList<>(modern.keySet()))
        .containsExactly("era", "clientInfo", "discover", "toolsList");
    assertThat(modern).containsEntry("era", "modern").containsEntry("discover", null);
  }

  @Test
  void aCaptureReadsBackAsTheAnswerItWasTakenFrom() {
    Map<String, Object> toolsList = obj("tools", tools());
    Map<String, Object> discover =
        obj("capabilities", obj("x", false), "supportedVersions", arr("2026-07-28"));

    assertThat(
            Captures.toAnswer(
                Captures.toCapture(Era.LEGACY, CLIENT_A, initializeResult(), toolsList), ""))
        .isEqualTo(Answers.legacy(initializeResult(), tools()));
    assertThat(Captures.toAnswer(Captures.toCapture(Era.LEGACY, CLIENT_A, null, toolsList), ""))
        .isEqualTo(Answers.legacy(null, tools()));
    assertThat(Captures.toAnswer(Captures.toCapture(Era.MODERN, CLIENT_A, discover, toolsList), ""))
        .isEqualTo(Answers.modern(discover, tools(), List.of(toolsList)));
  }
}
