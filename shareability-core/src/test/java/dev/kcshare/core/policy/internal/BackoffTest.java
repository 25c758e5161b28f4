package dev.kcshare.core.policy.internal;

import static dev.kcshare.core.policy.PolicyFixtures.identity;
import static dev.kcshare.core.policy.PolicyFixtures.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.records.VerdictCache;
import dev.kcshare.core.records.internal.AttemptRecord;
import dev.kcshare.core.records.internal.FailedAttempts;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class BackoffTest {
  private static final double T = 1_800_000_000;
  private static final double HOUR = 3600;

  private static AttemptRecord failed(String identity, double at, int failures) {
    return new AttemptRecord(at, identity, "no response", "exit 1", "", failures);
  }

  @Test
  void twoFailuresStartAnHourThatDoublesUpToADay() {
    assertThat(Backoff.delaySeconds(0)).isZero();
    assertThat(Backoff.delaySeconds(1)).isZero();
    assertThat(Backoff.delaySeconds(2)).isEqualTo(1 * HOUR);
    assertThat(Backoff.delaySeconds(3)).isEqualTo(2 * HOUR);
    assertThat(Backoff.delaySeconds(4)).isEqualTo(4 * HOUR);
    assertThat(Backoff.delaySeconds(5)).isEqualTo(8 * HOUR);
    assertThat(Backoff.delaySeconds(6)).isEqualTo(16 * HOUR);
    assertThat(Backoff.delaySeconds(7)).isEqualTo(24 * HOUR);
    assertThat(Backoff.delaySeconds(40)).isEqualTo(24 * HOUR);
    assertThat(Backoff.delaySeconds(Integer.MAX_VALUE)).isEqualTo(24 * HOUR);
  }

  @Test
  void oneFailureIsRetriedOnTheNextPass() {
    assertThat(Backoff.holdsBack(failed(identity("a"), T, 1), identity("a"), T + 1)).isFalse();
  }

  @Test
  void twoFailuresUnderTheSameIdentityHoldBackForAnHourExactly() {
    AttemptRecord a = failed(identity("a"), T, 2);
    assertThat(Backoff.holdsBack(a, identity("a"), T)).isTrue();
    assertThat(Backoff.holdsBack(a, identity("a"), T + HOUR - 0.001)).isTrue();
    assertThat(Backoff.holdsBack(a, identity("a"), T + HOUR)).isFalse();
    assertThat(Backoff.retryAt(a)).isEqualTo(T + HOUR);
    AttemptRecord five = failed(identity("a"), T, 5);
    assertThat(Backoff.holdsBack(five, identity("a"), T + 7.9 * HOUR)).isTrue();
    assertThat(Backoff.holdsBack(five, identity("a"), T + 8 * HOUR)).isFalse();
  }

  @Test
  void aChangedIdentityIsTriedAtOnce() {
    AttemptRecord a = failed(identity("old"), T, 6);
    assertThat(Backoff.holdsBack(a, identity("new"), T + 1)).isFalse();
    assertThat(Backoff.holdsBack(a, null, T + 1)).isFalse();
    assertThat(Backoff.holdsBack(null, identity("new"), T + 1)).isFalse();
  }

  @Test
  void anAttemptFromTheFutureDoesNotSilenceAServer() {
    AttemptRecord ahead = failed(identity("a"), T + 10 * HOUR, 7);
    assertThat(Backoff.holdsBack(ahead, identity("a"), T)).isFalse();
    AttemptRecord slightlyAhead = failed(identity("a"), T + 60, 2);
    assertThat(Backoff.holdsBack(slightlyAhead, identity("a"), T)).isTrue();
  }

  @Test
  void heldBackListsSpawnableCandidatesInOrderWithTheirRetryTimes() {
    FailedAttempts attempts = FailedAttempts.empty();
    attempts.recordFailure("b", identity("b"), T, "timeout", null, "");
    attempts.recordFailure("b", identity("b"), T, "timeout", null, "");
    attempts.recordFailure("a", identity("a"), T - 3 * HOUR, "timeout", null, "");
    attempts.recordFailure("a", identity("a"), T - 3 * HOUR, "timeout", null, "");
    attempts.recordFailure("c", identity("c"), T, "timeout", null, "");
    attempts.recordFailure("c", identity("c"), T, "timeout", null, "");
    List<Selection.Candidate> candidates =
        List.of(
            new Selection.Candidate("b", identity("b"), "", true),
            new Selection.Candidate("a", identity("a"), "", true),
            new Selection.Candidate("c", identity("c"), "", false));
    assertThat(Backoff.heldBack(candidates, attempts, T + 1))
        .containsExactly(Map.entry("b", T + HOUR));
  }

  @Test
  void selectionSkipsHeldBackServersWithoutSpendingTheBudget() {
    VerdictCache cache = VerdictCache.empty();
    cache.put("d", row(identity("d"), true, ""));
    cache.put("e", row(identity("e"), false, ""));
    List<Selection.Candidate> candidates =
        List.of(
            new Selection.Candidate("a", identity("a"), "", true),
            new Selection.Candidate("b", identity("b"), "", true),
            new Selection.Candidate("c", identity("c"), "", true),
            new Selection.Candidate("d", identity("d"), "", true),
            new Selection.Candidate("e", identity("e"), "", true));
    Map<String, Double> heldBack = Map.of("a", T + 1, "d", T + 2, "e", T + 3);
    Selection budgeted = Selection.select(candidates, cache, 2, heldBack);
    assertThat(budgeted.due()).containsExactly("b", "c");
    // e has a clean hit, so it was never going to be measured: not counted as skipped.
    assertThat(budgeted.skipped()).containsExactly(Map.entry("a", T + 1), Map.entry("d", T + 2));
    assertThat(budgeted.stored()).containsOnlyKeys("d", "e");

    Selection uncapped = Selection.select(candidates, cache, Selection.UNCAPPED, Map.of());
    assertThat(uncapped.due()).containsExactly("a", "b", "c", "d");
    assertThat(uncapped.skipped()).isEmpty();
  }

  @Test
  void defaultProcessCeilingFollowsTheProcessorCount() {
    assertThat(Selection.defaultProcessCeiling(1)).isEqualTo(2);
    assertThat(Selection.defaultProcessCeiling(2)).isEqualTo(2);
    assertThat(Selection.defaultProcessCeiling(3)).isEqualTo(3);
    assertThat(Selection.defaultProcessCeiling(4)).isEqualTo(4);
    assertThat(Selection.defaultProcessCeiling(8)).isEqualTo(8);
    assertThat(Selection.defaultProcessCeiling(64)).isEqualTo(8);
    assertThat(Selection.defaultProcessCeiling(0)).isEqualTo(2);
  }
}
