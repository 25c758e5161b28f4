package dev.kcshare.core.verdict.internal;

import dev.kcshare.core.verdict.Assessor;
import dev.kcshare.core.verdict.Evidence;
import dev.kcshare.core.verdict.Verdict;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

/**
 * One evidence object of the CLI's evidence form: the {@link Evidence} and the identity keys it
 * carries, which are the two arguments of {@link Assessor#assess}.
 *
 * @param evidence the evidence
 * @param identityKeys the identity keys exactly as given (already resolved by the caller; no scrub
 *     is applied), unmodifiable
 */
public record EvidenceInput(Evidence evidence, Set<String> identityKeys) {
  public EvidenceInput {
    Objects.requireNonNull(evidence, "evidence");
    identityKeys = Collections.unmodifiableSet(new LinkedHashSet<>(identityKeys));
  }

  /** Assesses this input. */
  public Verdict assess() {
    return Assessor.assess(evidence, identityKeys);
  }
}
