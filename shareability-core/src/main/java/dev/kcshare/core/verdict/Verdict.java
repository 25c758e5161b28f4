package dev.kcshare.core.verdict;

import java.util.List;
import java.util.Objects;

/**
 * The answer for one server: a strength, the two separate recommendations and the ordered reasons
 * that justify them.
 *
 * <p>{@code recommendStub} and {@code recommendShare} are separate on purpose: a stub keeps the
 * backend 1:1 with the session, sharing introduces co-tenancy; weak evidence recommends the first
 * and withholds the second. Drive a UI warning from {@link Strength#isEvidenceAgainst()}, never
 * from {@code !recommendShare}.
 *
 * <pre>{@code
 * Verdict v = Assessor.assess(evidence, identityKeys);
 * boolean stub = v.recommendStub(), share = v.recommendShare();
 * List<ReasonCode> why = v.codes();   // e.g. [OBSERVED_HAZARD]
 * }</pre>
 *
 * @param name the configured server name
 * @param strength the evidence tier
 * @param recommendStub keep the backend 1:1 behind a per-session stub
 * @param recommendShare let several sessions share one backend process
 * @param reasons ordered reasons, never empty for a verdict produced by {@link Assessor}
 */
public record Verdict(
    String name,
    Strength strength,
    boolean recommendStub,
    boolean recommendShare,
    List<Reason> reasons) {
  /**
   * Validates and copies.
   *
   * @param name the configured server name
   * @param strength the evidence tier
   * @param recommendStub keep the backend 1:1 behind a per-session stub
   * @param recommendShare let several sessions share one backend process
   * @param reasons ordered reasons, never empty for a verdict produced by {@link Assessor}
   * @throws NullPointerException if {@code name}, {@code strength} or a reason is null
   */
  public Verdict {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(strength, "strength");
    reasons = List.copyOf(reasons);
  }

  /**
   * The reason codes in order.
   *
   * @return the codes of {@code reasons}, in the same order
   */
  public List<ReasonCode> codes() {
    return reasons.stream().map(Reason::code).toList();
  }
}
