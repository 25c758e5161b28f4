package dev.kcshare.core.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.policy.Seeding.Recommendation;
import dev.kcshare.core.policy.Seeding.SeedPlan;
import dev.kcshare.core.verdict.Strength;
import dev.kcshare.core.verdict.Verdict;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

final class SeedingTest {
  private static Map<String, Object> section(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  private static List<String> keys(Object map) {
    List<String> out = new ArrayList<>();
    for (Object k : ((Map<?, ?>) map).keySet()) {
      out.add((String) k);
    }
    return out;
  }

  @Test
  void rosterByKeyPresence() {
    assertThat(Seeding.roster(section("stub_servers", List.of("a", "", "b", "a", 3))))
        .containsExactly("a", "b");
    assertThat(
            Seeding.roster(
                section(
                    "stub_servers", List.of(), "enabled", true, "poolable_servers", List.of("p"))))
        .isEmpty();
    assertThat(Seeding.roster(section("stub_servers", "a")))
        .as("a non-array roster reads as empty")
        .isEmpty();
    assertThat(Seeding.roster(section("enabled", true, "poolable_servers", List.of("p", "q"))))
        .containsExactly("p", "q");
    assertThat(Seeding.roster(section("enabled", "true", "poolable_servers", List.of("p"))))
        .as("only boolean true enables the legacy roster")
        .isEmpty();
    assertThat(Seeding.roster(section("enabled", true, "poolable_servers", "p"))).isEmpty();
  }

  @Test
  void validOverridesAndEffectiveStubSet() {
    Map<String, Object> overrides = new LinkedHashMap<>();
    overrides.put("b", false);
    overrides.put("z", true);
    overrides.put("y", true);
    overrides.put("", true);
    overrides.put("bad", "true");
    overrides.put("a", true);
    Map<String, Object> s =
        section("stub_servers", List.of("a", "b", "c"), "stub_overrides", overrides);
    assertThat(Seeding.validOverrides(s)).containsOnlyKeys("b", "z", "y", "a");
    assertThat(Seeding.effectiveStubSet(s)).containsExactly("a", "c", "y", "z");
    assertThat(Seeding.validOverrides(section("stub_overrides", List.of()))).isEmpty();
  }

  /** The example of docs/design.md#seeding-apply. */
  @Test
  void specExamplePlanAndApply() {
    Map<String, Recommendation> verdicts = new LinkedHashMap<>();
    verdicts.put("x", new Recommendation(true, true));
    verdicts.put("r", new Recommendation(false, false));
    verdicts.put("q", new Recommendation(true, false));
    verdicts.put("p", new Recommendation(true, true));
    Map<String, Object> s =
        section(
            "stub_servers", new ArrayList<>(List.of("p")), "stub_overrides", section("q", false));
    SeedPlan plan = Seeding.plan(Set.of("x"), verdicts, Seeding.effectiveStubSet(s));
    assertThat(plan.addStub()).containsExactly("q");
    assertThat(plan.markApplied()).containsExactly("p", "q", "r");
    assertThat(plan.wantsShare()).containsExactly("p");

    List<String> marked = new ArrayList<>();
    boolean changed = Seeding.apply(plan, s, marked::add);
    assertThat(changed).isFalse();
    assertThat(marked).containsExactly("p", "q", "r");
    assertThat(s.get("stub_overrides")).isEqualTo(Map.of("q", false));
    assertThat(Seeding.effectiveStubSet(s)).containsExactly("p");
  }

  @Test
  void applyAddsOverridesSortedAndDropsInvalidEntries() {
    Map<String, Object> overrides = new LinkedHashMap<>();
    overrides.put("zz", true);
    overrides.put("junk", 1);
    Map<String, Object> s = section("stub_overrides", overrides, "enabled", false);
    SeedPlan plan = new SeedPlan(List.of("b", "a"), List.of("a", "b"), List.of());
    assertThat(Seeding.apply(plan, s, n -> {})).isTrue();
    assertThat(keys(s.get("stub_overrides"))).containsExactly("a", "b", "zz");
    assertThat(s.get("enabled")).isEqualTo(false);
    assertThat(s).doesNotContainKey("stub_servers");
  }

  @Test
  void emptyPlanTouchesNothingAndMarksNothing() {
    Map<String, Object> s = section("stub_overrides", "not an object");
    List<String> marked = new ArrayList<>();
    SeedPlan plan = new SeedPlan(List.of(), List.of(), List.of("share-only"));
    assertThat(plan.isEmpty()).isTrue();
    assertThat(Seeding.apply(plan, s, marked::add)).isFalse();
    assertThat(marked).isEmpty();
    assertThat(s.get("stub_overrides")).isEqualTo("not an object");
  }

  @Test
  void shareWithoutStubIsNotReportedAndAlreadyStubbedStillWantsShare() {
    Map<String, Recommendation> verdicts =
        Map.of("a", new Recommendation(false, true), "b", new Recommendation(true, true));
    SeedPlan plan = Seeding.plan(Set.of(), verdicts, List.of("b"));
    assertThat(plan.addStub()).isEmpty();
    assertThat(plan.markApplied()).containsExactly("a", "b");
    assertThat(plan.wantsShare()).containsExactly("b");
  }

  @Test
  void planOrdersByCodePoint() {
    Map<String, Recommendation> verdicts = new LinkedHashMap<>();
    for (String n : Arrays.asList("\uFB01", "\uD83D\uDE00", "a")) {
      verdicts.put(n, new Recommendation(true, false));
    }
    assertThat(Seeding.plan(Set.of(), verdicts, List.of()).addStub())
        .containsExactly("a", "\uFB01", "\uD83D\uDE00");
  }

  @Test
  void setOverridesWritesTheGivenValue() {
    Map<String, Object> s = section("stub_overrides", section("b", true));
    assertThat(Seeding.setOverrides(s, List.of("a"), true)).isTrue();
    assertThat(keys(s.get("stub_overrides"))).containsExactly("a", "b");
    assertThat(Seeding.setOverrides(s, List.of("a"), true)).isFalse();
    assertThat(Seeding.setOverrides(s, List.of("b"), false)).isTrue();
    assertThat(s.get("stub_overrides")).isEqualTo(Map.of("a", true, "b", false));
  }

  @ParameterizedTest
  @EnumSource(Strength.class)
  void anUnknownVerdictIsNeitherSeededNorMarkedAndEveryOtherIs(Strength strength) {
    List<Verdict> verdicts =
        List.of(new Verdict("s", strength, true, false, List.of()), verdict("known"));
    Map<String, Recommendation> recommendations = Seeding.recommendations(verdicts);
    SeedPlan plan = Seeding.plan(Set.of(), recommendations, List.of());
    if (strength == Strength.UNKNOWN) {
      assertThat(Seeding.isSeedable(verdicts.get(0))).isFalse();
      assertThat(plan.markApplied()).containsExactly("known");
      assertThat(plan.addStub()).containsExactly("known");
    } else {
      assertThat(Seeding.isSeedable(verdicts.get(0))).isTrue();
      assertThat(plan.markApplied()).containsExactly("known", "s");
      assertThat(plan.addStub()).containsExactly("known", "s");
    }
  }

  @Test
  void recommendationsKeepTheVerdictsRecommendationsInOrderAndTheFirstOfARepeatedName() {
    Map<String, Recommendation> recommendations =
        Seeding.recommendations(
            List.of(
                new Verdict("b", Strength.MEASURED, true, true, List.of()),
                new Verdict("a", Strength.DISQUALIFIED, false, false, List.of()),
                new Verdict("b", Strength.NO_OBJECTION, false, false, List.of())));
    assertThat(recommendations.keySet()).containsExactly("b", "a");
    assertThat(recommendations.get("b")).isEqualTo(new Recommendation(true, true));
    assertThat(recommendations.get("a")).isEqualTo(new Recommendation(false, false));
  }

  private static Verdict verdict(String name) {
    return new Verdict(name, Strength.NO_OBJECTION, true, false, List.of());
  }
}
