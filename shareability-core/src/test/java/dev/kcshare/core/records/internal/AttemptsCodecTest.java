package dev.kcshare.core.records.internal;

import static dev.kcshare.core.records.Json.obj;
import static dev.kcshare.core.records.Json.with;
import static dev.kcshare.core.records.Json.without;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class AttemptsCodecTest {
  private static final String ID = "a".repeat(64) + "\u0000" + "b".repeat(64) + "\u0000fp\u00002";

  private static Map<String, Object> entry() {
    return obj(
        "at",
        1_800_000_000.5,
        "identity",
        ID,
        "detail",
        "no response (process exited with status 1)",
        "exitStatus",
        "exit 1",
        "stderrTail",
        "fixture: FIXTURE_TOKEN is not set\\n",
        "failures",
        2L);
  }

  private static Object doc(Map<String, Object> entry) {
    return obj("schema", 1L, "servers", obj("needs-env", entry));
  }

  @Test
  void roundTripsEveryMemberInOrder() {
    AttemptsLoad load = AttemptsCodec.decode(doc(entry()));
    assertThat(load.dropped()).isEmpty();
    assertThat(load.newer()).isFalse();
    AttemptRecord r = load.servers().get("needs-env");
    assertThat(r)
        .isEqualTo(
            new AttemptRecord(
                1_800_000_000.5,
                ID,
                "no response (process exited with status 1)",
                "exit 1",
                "fixture: FIXTURE_TOKEN is not set\\n",
                2));
    Map<String, Object> encoded = AttemptsCodec.encode(load.servers());
    assertThat(new ArrayList<>(encoded.keySet())).containsExactly("schema", "servers");
    @SuppressWarnings("unchecked")
    Map<String, Object> written =
        (Map<String, Object>) ((Map<String, Object>) encoded.get("servers")).get("needs-env");
    assertThat(new ArrayList<>(written.keySet()))
        .containsExactly("at", "identity", "detail", "exitStatus", "stderrTail", "failures");
    assertThat(AttemptsCodec.decode(encoded).servers()).isEqualTo(load.servers());
  }

  @Test
  void nullOrMissingExitStatusAndTailAreAccepted() {
    AttemptRecord r =
        AttemptsCodec.decode(doc(without(with(entry(), "exitStatus", null), "stderrTail")))
            .servers()
            .get("needs-env");
    assertThat(r.exitStatus()).isNull();
    assertThat(r.stderrTail()).isEmpty();
  }

  @Test
  void aCorruptDocumentIsNoAttempts() {
    for (Object root :
        List.of(
            "x",
            List.of(),
            obj("servers", obj("a", entry())),
            obj("schema", "1", "servers", obj("a", entry())),
            obj("schema", 1L, "servers", List.of()))) {
      AttemptsLoad load = AttemptsCodec.decode(root);
      assertThat(load.servers()).as("%s", root).isEmpty();
      assertThat(load.newer()).as("%s", root).isFalse();
      assertThat(load.dropped()).as("%s", root).isNotEmpty();
    }
    AttemptsLoad missing = AttemptsCodec.decode(null);
    assertThat(missing.servers()).isEmpty();
    assertThat(missing.dropped()).isEmpty();
  }

  @Test
  void aNewerSchemaIsNotReadAndMarkedNeverToBeReplaced() {
    AttemptsLoad load = AttemptsCodec.decode(obj("schema", 2L, "servers", obj("a", entry())));
    assertThat(load.servers()).isEmpty();
    assertThat(load.newer()).isTrue();
    assertThat(FailedAttempts.of(load).mayWrite()).isFalse();
    assertThat(FailedAttempts.of(AttemptsCodec.decode(doc(entry()))).mayWrite()).isTrue();
  }

  @Test
  void entriesOfTheWrongShapeAreDroppedAndTheRestKept() {
    List<Map<String, Object>> bad =
        List.of(
            with(entry(), "at", "soon"),
            with(entry(), "at", Double.NaN),
            without(entry(), "at"),
            with(entry(), "identity", ""),
            with(entry(), "identity", 7L),
            with(entry(), "detail", null),
            with(entry(), "exitStatus", 1L),
            with(entry(), "stderrTail", List.of()),
            with(entry(), "failures", 0L),
            with(entry(), "failures", -3L),
            with(entry(), "failures", 2.5),
            with(entry(), "failures", true),
            without(entry(), "failures"));
    for (Map<String, Object> e : bad) {
      AttemptsLoad load =
          AttemptsCodec.decode(
              obj("schema", 1L, "servers", obj("bad", e, "good", entry(), "", entry())));
      assertThat(load.servers().keySet()).as("%s", e).containsExactly("good");
      assertThat(load.dropped()).as("%s", e).hasSize(2);
    }
  }

  @Test
  void hugeCountsAreCappedAndStringsBounded() {
    Map<String, Object> e =
        with(
            with(
                with(entry(), "failures", new BigInteger("99999999999999999999")),
                "detail",
                "d".repeat(5000)),
            "stderrTail",
            "raw \u001b[31m and \n newline");
    AttemptRecord r = AttemptsCodec.decode(doc(e)).servers().get("needs-env");
    // A count beyond a long is not a usable count: dropped, like any other wrong member.
    assertThat(r).isNull();
    AttemptRecord capped =
        AttemptsCodec.decode(
                doc(with(with(entry(), "failures", Long.MAX_VALUE), "detail", "d".repeat(5000))))
            .servers()
            .get("needs-env");
    assertThat(capped.failures()).isEqualTo(AttemptsCodec.MAX_FAILURES);
    assertThat(capped.detail()).hasSize(AttemptsCodec.DETAIL_LIMIT + 3).endsWith("...");

    AttemptRecord hostile =
        AttemptsCodec.decode(doc(with(entry(), "stderrTail", "raw \u001b[31m and \n newline")))
            .servers()
            .get("needs-env");
    assertThat(hostile.stderrTail()).isEqualTo("raw \\x1b[31m and \\n newline");
    assertThat(AttemptsCodec.boundTail("x".repeat(20_000)))
        .hasSize(AttemptsCodec.STDERR_TAIL_LIMIT + 3);
  }
}
