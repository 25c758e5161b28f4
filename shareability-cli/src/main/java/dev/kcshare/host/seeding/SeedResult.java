package dev.kcshare.host.seeding;

import dev.kcshare.core.policy.Seeding;
import java.util.List;
import java.util.Objects;

/**
 * What one seed did (docs/seeding.md). Obtained from {@link SeedService#applySeed}; immutable.
 *
 * @param plan the plan that was applied
 * @param added the names newly written as {@code stub_overrides[name] = true}, in code-point order
 * @param keptExplicit the names the plan would stub that were left as they were: already in the
 *     roster, or with an explicit override of their own (an operator's {@code false} is never
 *     overwritten); in code-point order
 * @param sectionChanged the section changed, so the writer was called
 * @param markersWritten the verdict cache was written with new applied markers
 */
public record SeedResult(
    Seeding.SeedPlan plan,
    List<String> added,
    List<String> keptExplicit,
    boolean sectionChanged,
    boolean markersWritten) {
  /**
   * Validates and copies.
   *
   * @throws NullPointerException if an argument is null
   */
  public SeedResult {
    Objects.requireNonNull(plan, "plan");
    added = List.copyOf(added);
    keptExplicit = List.copyOf(keptExplicit);
  }
}
