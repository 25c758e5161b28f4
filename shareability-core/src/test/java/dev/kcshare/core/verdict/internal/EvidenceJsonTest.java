package dev.kcshare.core.verdict.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.kcshare.core.json.internal.JsonInputException;
import dev.kcshare.core.testing.TestJson;
import dev.kcshare.core.verdict.Evidence;
import dev.kcshare.core.verdict.Reason;
import dev.kcshare.core.verdict.ReasonCode;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EvidenceJsonTest {

  private static EvidenceInput parse(String json) {
    return EvidenceJson.fromJson(TestJson.parse(json), "");
  }

  private static JsonInputException failure(@Nullable Object root) {
    return catchThrowableOfType(JsonInputException.class, () -> EvidenceJson.fromDocument(root));
  }

  @Test
  void anEmptyObjectTakesEveryDefault() {
    EvidenceInput input = parse("{}");
    assertThat(input.evidence()).isEqualTo(Evidence.builder().build());
    Evidence e = input.evidence();
    assertThat(e.name()).isEmpty();
    assertThat(e.isStdio()).isTrue();
    assertThat(e.sessionBoundByConstruction()).isFalse();
    assertThat(e.probeOk()).isFalse();
    assertThat(e.capabilities()).isNull();
    assertThat(e.protocolVersion()).isEmpty();
    assertThat(e.toolAnnotations()).isEmpty();
    assertThat(e.hasTools()).isFalse();
    assertThat(e.declaredEnvNames()).isEmpty();
    assertThat(e.observedHazards()).isEmpty();
    assertThat(e.preflightRan()).isNull();
    assertThat(e.preflightCallerSensitive()).isFalse();
    assertThat(input.identityKeys()).isEmpty();
  }

  @Test
  void everyMemberIsRead() {
    EvidenceInput input =
        parse(
            """
            {"name": "n", "stdio": false, "sessionBoundByConstruction": true, "probeOk": true,
             "capabilities": {"logging": {}}, "protocolVersion": "2025-06-18",
             "toolAnnotations": [{"readOnlyHint": true}, "junk"], "hasTools": true,
             "declaredEnvNames": ["B", "A", "B"], "observedHazards": ["h"],
             "preflightRan": false, "preflightCallerSensitive": true,
             "identityKeys": ["AWS_SECRET_X", "OAUTH_T"], "someFutureMember": [1, 2]}
            """);
    Evidence e = input.evidence();
    assertThat(e.name()).isEqualTo("n");
    assertThat(e.isStdio()).isFalse();
    assertThat(e.sessionBoundByConstruction()).isTrue();
    assertThat(e.probeOk()).isTrue();
    assertThat(e.capabilities()).isEqualTo(Map.of("logging", Map.of()));
    assertThat(e.protocolVersion()).isEqualTo("2025-06-18");
    assertThat(e.toolAnnotations()).isEqualTo(List.of(Map.of("readOnlyHint", true), "junk"));
    assertThat(e.hasTools()).isTrue();
    assertThat(e.declaredEnvNames()).containsExactly("B", "A", "B");
    assertThat(e.observedHazards()).containsExactly("h");
    assertThat(e.preflightRan()).isFalse();
    assertThat(e.preflightCallerSensitive()).isTrue();
    // Used as given: no credential scrub here.
    assertThat(input.identityKeys()).containsExactly("AWS_SECRET_X", "OAUTH_T");
  }

  @Test
  void nullIsLegalForCapabilitiesAndPreflightRan() {
    EvidenceInput input = parse("{\"capabilities\": null, \"preflightRan\": null}");
    assertThat(input.evidence().capabilities()).isNull();
    assertThat(input.evidence().preflightRan()).isNull();
    assertThat(parse("{\"preflightRan\": true}").evidence().preflightRan()).isTrue();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"name\": 1}                          | /0/name | expected a string, got a number",
        "{\"name\": null}                       | /0/name | expected a string, got null",
        "{\"stdio\": \"yes\"}                   | /0/stdio | expected a boolean, got a string",
        "{\"stdio\": null}                      | /0/stdio | expected a boolean, got null",
        "{\"sessionBoundByConstruction\": 0}    | /0/sessionBoundByConstruction | expected a boolean, got a number",
        "{\"probeOk\": []}                      | /0/probeOk | expected a boolean, got an array",
        "{\"capabilities\": []}                 | /0/capabilities | expected an object or null, got an array",
        "{\"capabilities\": false}              | /0/capabilities | expected an object or null, got a boolean",
        "{\"protocolVersion\": {}}              | /0/protocolVersion | expected a string, got an object",
        "{\"protocolVersion\": null}            | /0/protocolVersion | expected a string, got null",
        "{\"toolAnnotations\": {}}              | /0/toolAnnotations | expected an array, got an object",
        "{\"toolAnnotations\": null}            | /0/toolAnnotations | expected an array, got null",
        "{\"hasTools\": \"true\"}               | /0/hasTools | expected a boolean, got a string",
        "{\"declaredEnvNames\": \"A\"}          | /0/declaredEnvNames | expected an array, got a string",
        "{\"declaredEnvNames\": [\"A\", 2]}     | /0/declaredEnvNames/1 | expected a string, got a number",
        "{\"declaredEnvNames\": [null]}         | /0/declaredEnvNames/0 | expected a string, got null",
        "{\"observedHazards\": [true]}          | /0/observedHazards/0 | expected a string, got a boolean",
        "{\"observedHazards\": null}            | /0/observedHazards | expected an array, got null",
        "{\"preflightRan\": \"false\"}          | /0/preflightRan | expected a boolean or null, got a string",
        "{\"preflightRan\": 0}                  | /0/preflightRan | expected a boolean or null, got a number",
        "{\"preflightCallerSensitive\": null}   | /0/preflightCallerSensitive | expected a boolean, got null",
        "{\"identityKeys\": \"OAUTH\"}          | /0/identityKeys | expected an array, got a string",
        "{\"identityKeys\": [\"A\", [\"B\"]]}   | /0/identityKeys/1 | expected a string, got an array",
      })
  void aWrongTypeNamesTheMember(String element, String pointer, String problem) {
    JsonInputException e = failure(TestJson.parse("[" + element + "]"));
    assertThat(e.pointer()).isEqualTo(pointer);
    assertThat(e.problem()).isEqualTo(problem);
    assertThat(e).hasMessage(pointer + ": " + problem);
  }

  @Test
  void pointersUseTheElementIndexAndEscapeNothingElse() {
    Object doc = TestJson.parse("[{}, {}, {}, {\"stdio\": 1}]");
    assertThat(failure(doc).pointer()).isEqualTo("/3/stdio");
    assertThat(
            catchThrowableOfType(
                    JsonInputException.class, () -> EvidenceJson.fromJson(Map.of("stdio", 1L), ""))
                .pointer())
        .isEqualTo("/stdio");
  }

  @Test
  void aSingleObjectRootIsNotAnArray() {
    EvidenceDocument doc = EvidenceJson.fromDocument(TestJson.parse("{\"name\": \"x\"}"));
    assertThat(doc.isArray()).isFalse();
    assertThat(doc.inputs()).hasSize(1);
    assertThat(doc.inputs().get(0).evidence().name()).isEqualTo("x");
  }

  @Test
  void anArrayRootKeepsOrderEvenWithOneOrZeroElements() {
    EvidenceDocument doc =
        EvidenceJson.fromDocument(TestJson.parse("[{\"name\": \"b\"}, {\"name\": \"a\"}]"));
    assertThat(doc.isArray()).isTrue();
    assertThat(doc.inputs()).extracting(i -> i.evidence().name()).containsExactly("b", "a");
    assertThat(EvidenceJson.fromDocument(TestJson.parse("[{}]")).isArray()).isTrue();
    EvidenceDocument empty = EvidenceJson.fromDocument(List.of());
    assertThat(empty.isArray()).isTrue();
    assertThat(empty.inputs()).isEmpty();
  }

  @Test
  void aNonObjectElementFailsAtItsIndex() {
    JsonInputException e = failure(TestJson.parse("[{}, \"x\"]"));
    assertThat(e.pointer()).isEqualTo("/1");
    assertThat(e.problem()).isEqualTo("expected an object, got a string");
    assertThat(failure(TestJson.parse("[{}, null]")).problem())
        .isEqualTo("expected an object, got null");
  }

  @Test
  void aRootThatIsNeitherFailsAtTheRoot() {
    JsonInputException e = failure("evidence");
    assertThat(e.pointer()).isEmpty();
    assertThat(e.problem()).isEqualTo("expected an object or an array of objects, got a string");
    assertThat(e).hasMessage("(root): expected an object or an array of objects, got a string");
    assertThat(failure(null).problem())
        .isEqualTo("expected an object or an array of objects, got null");
    assertThat(
            catchThrowableOfType(JsonInputException.class, () -> EvidenceJson.fromJson(4L, ""))
                .problem())
        .isEqualTo("expected an object, got a number");
  }

  @Test
  void parsedInputAssessesWithItsOwnIdentityKeys() {
    EvidenceInput input =
        parse(
            "{\"declaredEnvNames\": [\"OAUTH_A\", \"OAUTH_B\"], \"identityKeys\": [\"OAUTH_A\"]}");
    assertThat(input.assess().reasons())
        .containsExactly(
            Reason.of(ReasonCode.NOT_PROBED), Reason.of(ReasonCode.ROTATING_SECRET_ENV, "OAUTH_B"));
  }
}
