package dev.kcshare.core.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.kcshare.core.json.JsonWriter;
import dev.kcshare.core.json.internal.JsonInputException;
import dev.kcshare.core.testing.TestJson;
import dev.kcshare.core.verdict.internal.VerdictJson;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class VerdictJsonTest {
  private static final Verdict NOTES =
      new Verdict(
          "notes-mcp",
          Strength.DECLARED,
          true,
          false,
          List.of(
              Reason.of(ReasonCode.DECLARES_CALLER_IDENTITY),
              Reason.of(ReasonCode.ROTATING_SECRET_ENV, "OAUTH_REFRESH"),
              Reason.of(ReasonCode.DEGRADES_WHEN_SHARED, "logging_level")));

  @Test
  void jsonFormHasTheSpecifiedMembersInOrder() {
    assertThat(JsonWriter.compact(VerdictJson.toJson(NOTES)))
        .isEqualTo(
            "{\"name\":\"notes-mcp\",\"strength\":\"declared\",\"recommendStub\":true,"
                + "\"recommendShare\":false,\"reasons\":["
                + "{\"code\":\"declares_caller_identity\",\"detail\":\"\"},"
                + "{\"code\":\"rotating_secret_env\",\"detail\":\"OAUTH_REFRESH\"},"
                + "{\"code\":\"degrades_when_shared\",\"detail\":\"logging_level\"}]}");
  }

  @Test
  void exportFormCarriesCodesAndStrengthsOnly() {
    assertThat(JsonWriter.compact(VerdictJson.toExport(NOTES)))
        .isEqualTo(
            "{\"strength\":\"declared\",\"recommendStub\":true,\"recommendShare\":false,"
                + "\"reasons\":[\"declares_caller_identity\",\"rotating_secret_env\","
                + "\"degrades_when_shared\"]}");
  }

  @Test
  void fromJsonRoundTripsAndIgnoresUnknownMembers() {
    assertThat(VerdictJson.fromJson(VerdictJson.toJson(NOTES))).isEqualTo(NOTES);
    Object parsed =
        TestJson.parse(
            "{\"extra\": 1, \"name\": \"\", \"strength\": \"unknown\", \"recommendStub\": false,"
                + " \"recommendShare\": false, \"reasons\": []}");
    assertThat(VerdictJson.fromJson(parsed))
        .isEqualTo(new Verdict("", Strength.UNKNOWN, false, false, List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "[]                                     | ''          | expected an object, got an array",
        "{}                                     | ''          | missing member \"name\"",
        "{\"name\": 1}                          | /name       | expected a string, got a number",
        "{\"name\": \"\", \"strength\": \"meh\"} | /strength | "
            + "expected one of unknown, no_objection, measured, declared, disqualified, refuted",
        "{\"name\": \"\", \"strength\": \"refuted\", \"recommendStub\": \"no\"} | /recommendStub"
            + " | expected a boolean, got a string",
        "{\"name\": \"\", \"strength\": \"refuted\", \"recommendStub\": false,"
            + " \"recommendShare\": false} | '' | missing member \"reasons\"",
        "{\"name\": \"\", \"strength\": \"refuted\", \"recommendStub\": false,"
            + " \"recommendShare\": false, \"reasons\": {}} | /reasons | expected an array, got an"
            + " object",
        "{\"name\": \"\", \"strength\": \"refuted\", \"recommendStub\": false,"
            + " \"recommendShare\": false, \"reasons\": [\"observed_hazard\"]} | /reasons/0 |"
            + " expected an object, got a string",
        "{\"name\": \"\", \"strength\": \"refuted\", \"recommendStub\": false,"
            + " \"recommendShare\": false, \"reasons\": [{\"code\": \"observed_hazard\"}]} |"
            + " /reasons/0 | missing member \"detail\"",
        "{\"name\": \"\", \"strength\": \"refuted\", \"recommendStub\": false,"
            + " \"recommendShare\": false, \"reasons\": [{\"code\": \"per_client_capability\","
            + " \"detail\": \"\"}]} | /reasons/0/code | not a reason code",
      })
  void malformedVerdictsNameThePointer(String json, String pointer, String problem) {
    JsonInputException e =
        catchThrowableOfType(
            JsonInputException.class, () -> VerdictJson.fromJson(TestJson.parse(json)));
    assertThat(e.pointer()).isEqualTo(pointer);
    assertThat(e.problem()).isEqualTo(problem);
  }
}
