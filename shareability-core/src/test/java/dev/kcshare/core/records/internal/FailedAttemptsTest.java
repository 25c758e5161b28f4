package dev.kcshare.core.records.internal;

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
  void aFailureAskedForByNameKeepsTheCountedOneOrStartsAtOne() {
    FailedAttempts attempts = FailedAttempts.empty();
    AttemptRecord first = attempts.recordUncountedFailure("s", A, 10, "timeout", null, "t1");
    assertThat(first).isEqualTo(new AttemptRecord(10, A, "timeout", null, "t1", 1));
    attempts.recordFailure("s", A, 20, "timeout", null, "t2");
    AttemptRecord counted = attempts.get("s");
    assertThat(counted.failures()).isEqualTo(2);
    for (int i = 0; i < 5; i++) {
      assertThat(attempts.recordUncountedFailure("s", A, 30 + i, "no response", "exit 1", "t3"))
          .isEqualTo(counted);
    }
    assertThat(attempts.get("s")).isEqualTo(counted);
    // Under a new identity the old count says nothing: this failure is the first.
    assertThat(attempts.recordUncountedFailure("s", B, 40, "timeout", null, "").failures())
        .isEqualTo(1);
    assertThat(attempts.get("s").identity()).isEqualTo(B);
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
