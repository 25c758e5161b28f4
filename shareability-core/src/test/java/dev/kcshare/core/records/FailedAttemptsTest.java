package dev.kcshare.core.records;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class FailedAttemptsTest {
  private static final String A = "a\u00002";
  private static final String B = "b\u00002";

  @Test
  void consecutiveFailuresUnderOneIdentityAreCounted() {
    FailedAttempts attempts = FailedAttempts.empty();
    assertThat(attempts.isDirty()).isFalse();
    AttemptRecord first = attempts.recordFailure("s", A, 10, "timeout", "exit 0", "t1");
    assertThat(first.failures()).isEqualTo(1);
    assertThat(attempts.isDirty()).isTrue();
    AttemptRecord second = attempts.recordFailure("s", A, 20, "no response", "exit 1", "t2");
    assertThat(second).isEqualTo(new AttemptRecord(20, A, "no response", "exit 1", "t2", 2));
    assertThat(attempts.get("s")).isEqualTo(second);
  }

  @Test
  void aNewIdentityStartsCountingAgain() {
    FailedAttempts attempts = FailedAttempts.empty();
    attempts.recordFailure("s", A, 10, "timeout", null, "");
    attempts.recordFailure("s", A, 20, "timeout", null, "");
    assertThat(attempts.recordFailure("s", B, 30, "timeout", null, "").failures()).isEqualTo(1);
  }

  @Test
  void aSuccessForgetsTheServer() {
    FailedAttempts attempts =
        FailedAttempts.of(
            AttemptsCodec.decode(
                AttemptsCodec.encode(
                    java.util.Map.of("s", new AttemptRecord(1, A, "timeout", null, "", 3)))));
    assertThat(attempts.isDirty()).isFalse();
    attempts.recordSuccess("other");
    assertThat(attempts.isDirty()).isFalse();
    attempts.recordSuccess("s");
    assertThat(attempts.isDirty()).isTrue();
    assertThat(attempts.get("s")).isNull();
    assertThat(attempts.all()).isEmpty();
    attempts.markClean();
    assertThat(attempts.isDirty()).isFalse();
  }
}
