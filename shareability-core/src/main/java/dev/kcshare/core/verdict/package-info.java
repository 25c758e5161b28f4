/**
 * The verdict engine: {@link dev.kcshare.core.verdict.Evidence} in, {@link
 * dev.kcshare.core.verdict.Verdict} out, through {@link dev.kcshare.core.verdict.Assessor#assess}.
 * Pure: no I/O, no configuration, no clock.
 *
 * <pre>{@code
 * Evidence evidence = Evidence.builder().name("files-mcp").observedHazards(List.of()).build();
 * Verdict verdict = Assessor.assess(evidence, Set.of());
 * if (verdict.strength().isEvidenceAgainst()) warn(verdict.reasons());
 * }</pre>
 */
@NullMarked
package dev.kcshare.core.verdict;

import org.jspecify.annotations.NullMarked;
