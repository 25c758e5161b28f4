package dev.kcshare.core.handshake;

import static dev.kcshare.core.handshake.Fixtures.baseline;
import static dev.kcshare.core.handshake.Fixtures.legacy;
import static dev.kcshare.core.handshake.Fixtures.nestedObjects;
import static dev.kcshare.core.handshake.Fixtures.obj;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kcshare.core.handshake.internal.Answers;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class PreflightResultTest {

  private static Answer withServerInfo(Map<String, ?> serverInfo) {
    Answer base = baseline();
    return legacy(
        base.capabilities(),
        base.protocolVersion(),
        serverInfo,
        base.toolNames(),
        base.toolAnnotations());
  }

  @Test
  void agreementRanWithNoReasons() {
    Answer a = baseline();
    PreflightResult r = PreflightResult.decide(a, baseline());

    assertThat(r.ran()).isTrue();
    assertThat(r.callerSensitive()).isFalse();
    assertThat(r.detail()).isEmpty();
    assertThat(r.reasons()).isEmpty();
    assertThat(r.era()).isEqualTo(Era.LEGACY);
    assertThat(r.reportedVersion()).isEqualTo("1.0.0");
    assertThat(r.answerA()).isSameAs(a);
  }

  @Test
  void divergenceRanAndIsNotReproducible() {
    Answer a = baseline();
    Answer b = withServerInfo(obj("name", "srv", "version", "1.0.0", "title", "B only"));
    PreflightResult r = PreflightResult.decide(a, b);

    assertThat(r.ran()).isTrue();
    assertThat(r.callerSensitive()).isTrue();
    assertThat(r.detail()).isEqualTo("initialize_shape_differs");
    assertThat(r.reasons()).containsExactly("handshake_not_reproducible");
    assertThat(r.answerA()).isSameAs(a);
  }

  @Test
  void reportedVersionIsIdentityAsVersionString() {
    Answer b = baseline();
    assertThat(PreflightResult.decide(withServerInfo(obj("version", "7.1")), b).reportedVersion())
        .isEqualTo("7.1");
    assertThat(PreflightResult.decide(withServerInfo(obj("version", 7)), b).reportedVersion())
        .isEmpty();
    assertThat(PreflightResult.decide(withServerInfo(Map.of()), b).reportedVersion()).isEmpty();
    assertThat(PreflightResult.decide(b, withServerInfo(obj("version", "other"))).reportedVersion())
        .isEqualTo("1.0.0");
  }

  @Test
  void modernAnswersCarryTheirEra() {
    Answer a =
        Answers.modern(
            obj(
                "capabilities",
                obj(),
                "_meta",
                obj(Answers.SERVER_INFO_META_KEY, obj("version", "2"))),
            List.of());
    PreflightResult r = PreflightResult.decide(a, a);

    assertThat(r.era()).isEqualTo(Era.MODERN);
    assertThat(r.reportedVersion()).isEqualTo("2");
    assertThat(r.toReportJson()).containsEntry("era", "modern");
  }

  @Test
  void malformedNamesCouldNotRunButKeepIdentityAsAnswer() {
    Answer a = baseline();
    Answer b =
        legacy(
            a.capabilities(),
            a.protocolVersion(),
            a.serverInfo(),
            List.of(123),
            a.toolAnnotations());
    PreflightResult r = PreflightResult.decide(a, b);

    assertThat(r.ran()).isFalse();
    assertThat(r.callerSensitive()).isFalse();
    assertThat(r.detail()).isEqualTo("malformed_tool_names");
    assertThat(r.reasons()).containsExactly("preflight_unavailable");
    assertThat(r.answerA()).isSameAs(a);
    assertThat(r.reportedVersion()).isEqualTo("1.0.0");
  }

  @Test
  void couldNotRunCarriesTheProberFailure() {
    Answer a = baseline();
    PreflightResult oneSided = PreflightResult.couldNotRun("timeout", Era.LEGACY, a);
    PreflightResult none = PreflightResult.couldNotRun("no response", null, null);

    assertThat(oneSided.ran()).isFalse();
    assertThat(oneSided.reasons()).containsExactly("preflight_unavailable");
    assertThat(oneSided.detail()).isEqualTo("timeout");
    assertThat(oneSided.reportedVersion()).isEqualTo("1.0.0");
    assertThat(oneSided.answerA()).isSameAs(a);
    assertThat(none.reportedVersion()).isEmpty();
    assertThat(none.era()).isNull();
    assertThat(none.answerA()).isNull();
  }

  /** An object whose members cannot be read: stands for anything unexpected while deciding. */
  private static Map<String, Object> unreadable(Runnable thrower) {
    return new AbstractMap<>() {
      @Override
      public Set<Map.Entry<String, Object>> entrySet() {
        thrower.run();
        return Set.of();
      }
    };
  }

  @Test
  void anythingFailingWhileDecidingIsAPreflightError() {
    Answer a = baseline();
    Answer throwing =
        legacy(
            a.capabilities(),
            a.protocolVersion(),
            a.serverInfo(),
            a.toolNames(),
            List.of(
                unreadable(
                    () -> {
                      throw new IllegalStateException("unreadable");
                    })));
    Answer overflowing =
        legacy(
            a.capabilities(),
            a.protocolVersion(),
            a.serverInfo(),
            a.toolNames(),
            List.of(
                unreadable(
                    () -> {
                      throw new StackOverflowError();
                    })));

    assertThatThrownBy(() -> HandshakeComparison.compare(a, throwing))
        .isInstanceOf(IllegalStateException.class);
    for (Answer bad : List.of(throwing, overflowing)) {
      for (PreflightResult r :
          List.of(PreflightResult.decide(a, bad), PreflightResult.decide(bad, a))) {
        assertThat(r.ran()).isFalse();
        assertThat(r.callerSensitive()).isFalse();
        assertThat(r.detail()).isEqualTo("preflight_error");
        assertThat(r.reasons()).containsExactly("preflight_unavailable");
        assertThat(r.era()).isEqualTo(Era.LEGACY);
        assertThat(r.answerA()).isNull();
      }
    }
  }

  @Test
  void deeplyNestedAnswersAreDecidedNotErrored() {
    Answer a =
        legacy(
            nestedObjects(100_000, obj("flag", true)),
            "v",
            Map.of(),
            List.of("t"),
            List.of(nestedObjects(100_000, obj("readOnlyHint", true))));
    Answer b =
        legacy(
            nestedObjects(100_000, obj("flag", true)),
            "v",
            Map.of(),
            List.of("t"),
            List.of(nestedObjects(100_000, obj("readOnlyHint", false))));

    PreflightResult r = PreflightResult.decide(a, b);

    assertThat(r.ran()).isTrue();
    assertThat(r.detail()).isEqualTo("tools_shape_differs");
  }

  @Test
  void toJsonIsThePreflightCompareOutput() {
    PreflightResult ran = PreflightResult.decide(baseline(), baseline());
    PreflightResult sensitive =
        PreflightResult.decide(baseline(), withServerInfo(obj("other", "x")));
    PreflightResult notRun = PreflightResult.couldNotRun("timeout", Era.LEGACY, null);

    assertThat(new ArrayList<>(ran.toJson().keySet()))
        .containsExactly("ran", "callerSensitive", "reasons", "detail");
    assertThat(ran.toJson())
        .isEqualTo(obj("ran", true, "callerSensitive", false, "reasons", List.of(), "detail", ""));
    assertThat(sensitive.toJson())
        .isEqualTo(
            obj(
                "ran",
                true,
                "callerSensitive",
                true,
                "reasons",
                List.of("handshake_not_reproducible"),
                "detail",
                "initialize_shape_differs"));
    assertThat(notRun.toJson())
        .isEqualTo(
            obj(
                "ran",
                false,
                "callerSensitive",
                false,
                "reasons",
                List.of("preflight_unavailable"),
                "detail",
                "timeout"));
  }

  @Test
  void toReportJsonAddsEraAndReportedVersion() {
    PreflightResult ran = PreflightResult.decide(baseline(), baseline());
    PreflightResult unknownEra = PreflightResult.couldNotRun("no command", null, null);

    assertThat(new ArrayList<>(ran.toReportJson().keySet()))
        .containsExactly("ran", "callerSensitive", "reasons", "detail", "era", "reportedVersion");
    assertThat(ran.toReportJson())
        .containsEntry("era", "legacy")
        .containsEntry("reportedVersion", "1.0.0");
    assertThat(unknownEra.toReportJson())
        .containsEntry("era", null)
        .containsEntry("reportedVersion", "");
  }

  @Test
  void aResultThatDidNotRunCannotBeSensitive() {
    assertThatThrownBy(() -> new PreflightResult(false, true, "", Era.LEGACY, "", null))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
