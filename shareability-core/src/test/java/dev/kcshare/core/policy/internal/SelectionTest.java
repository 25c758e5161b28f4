package dev.kcshare.core.policy.internal;

import static dev.kcshare.core.policy.PolicyFixtures.identity;
import static dev.kcshare.core.policy.PolicyFixtures.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kcshare.core.policy.internal.Selection.Candidate;
import dev.kcshare.core.records.CacheLookup;
import dev.kcshare.core.records.VerdictCache;
import java.util.List;
import org.junit.jupiter.api.Test;

final class SelectionTest {
  private static Candidate spawnable(String name) {
    return new Candidate(name, identity(name), "", true);
  }

  /** The example of docs/design.md#what-is-due. */
  private static VerdictCache exampleCache() {
    VerdictCache cache = VerdictCache.empty();
    cache.put("a", row(identity("a"), false, ""));
    cache.put("c", row(identity("c"), true, ""));
    cache.markClean();
    return cache;
  }

  private static final List<Candidate> EXAMPLE =
      List.of(
          spawnable("a"),
          spawnable("b"),
          spawnable("c"),
          new Candidate("d", identity("d"), "", false),
          spawnable("e"));

  @Test
  void budgetedPassTakesNeverMeasuredFirst() {
    Selection s = Selection.select(EXAMPLE, exampleCache(), Selection.MAX_EVALUATIONS_PER_PASS);
    assertThat(s.due()).containsExactly("b", "e");
    assertThat(s.stored().keySet()).containsExactly("a", "c");
  }

  @Test
  void uncappedPassAddsDivergentAfterNeverMeasured() {
    Selection s = Selection.select(EXAMPLE, exampleCache(), Selection.UNCAPPED);
    assertThat(s.due()).containsExactly("b", "e", "c");
  }

  @Test
  void identityMismatchIsNeverMeasuredAndKeepsTheRow() {
    VerdictCache cache = exampleCache();
    Selection s =
        Selection.select(List.of(new Candidate("a", identity("a2"), "", true)), cache, 10);
    assertThat(s.due()).containsExactly("a");
    assertThat(s.stored()).isEmpty();
    assertThat(cache.getByName("a")).isNotNull();
    assertThat(cache.isDirty()).isFalse();
  }

  @Test
  void changedVersionDropsTheRowAndMakesTheServerDue() {
    VerdictCache cache = VerdictCache.empty();
    cache.put("a", row(identity("a"), false, "0.6.3"));
    cache.markClean();
    Selection s =
        Selection.select(List.of(new Candidate("a", identity("a"), "0.7.0", true)), cache, 10);
    assertThat(s.due()).containsExactly("a");
    assertThat(s.versionDrops()).containsKey("a");
    assertThat(s.versionDrops().get("a").outcome()).isEqualTo(CacheLookup.Outcome.VERSION_CHANGED);
    assertThat(cache.getByName("a")).isNull();
    assertThat(cache.isDirty()).isTrue();
  }

  @Test
  void unknownVersionNeverInvalidates() {
    VerdictCache cache = VerdictCache.empty();
    cache.put("a", row(identity("a"), false, "0.6.3"));
    Selection s = Selection.select(List.of(new Candidate("a", identity("a"), "", true)), cache, 10);
    assertThat(s.due()).isEmpty();
    assertThat(s.stored()).containsKey("a");
  }

  @Test
  void disabledAndCommandlessServersAreNeverDueButTheirHitsAreReported() {
    VerdictCache cache = VerdictCache.empty();
    cache.put("off", row(identity("off"), true, ""));
    Selection s =
        Selection.select(
            List.of(
                new Candidate("off", identity("off"), "", false),
                new Candidate("remote", null, "", false)),
            cache,
            Selection.UNCAPPED);
    assertThat(s.due()).isEmpty();
    assertThat(s.stored().keySet()).containsExactly("off");
  }

  @Test
  void zeroBudgetMeasuresNothing() {
    assertThat(Selection.select(EXAMPLE, exampleCache(), 0).due()).isEmpty();
    assertThatThrownBy(() -> Selection.select(EXAMPLE, exampleCache(), -1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void spawnableNeedsAnIdentity() {
    assertThatThrownBy(() -> new Candidate("x", null, "", true))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
