package dev.kcshare.host.report;

import dev.kcshare.core.cost.SessionCost;
import dev.kcshare.core.policy.EvidenceAssembly;
import dev.kcshare.core.records.CacheRow;
import dev.kcshare.core.verdict.Evidence;
import dev.kcshare.core.verdict.Verdict;
import dev.kcshare.host.config.ConfiguredServer;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One configured server's verdict with the evidence behind it.
 *
 * @param server the configured server (every definition, with its source)
 * @param evidence the assembled evidence
 * @param verdict the verdict
 * @param row the verdict-cache row the evidence used, or null
 * @param identitiesAgree every definition resolves to the same execution identity
 */
public record ServerVerdict(
    ConfiguredServer server,
    Evidence evidence,
    Verdict verdict,
    @Nullable CacheRow row,
    boolean identitiesAgree) {
  /**
   * Validates.
   *
   * @throws NullPointerException if {@code server}, {@code evidence} or {@code verdict} is null
   */
  public ServerVerdict {
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(evidence, "evidence");
    Objects.requireNonNull(verdict, "verdict");
  }

  /**
   * What one session's copy of this server costs, as measured by the pre-flight of the row the
   * evidence used (when it was measured: {@link CacheRow#evaluatedAt()}); empty when never measured
   * or not measurable here. Feed it, with the verdicts, to {@link
   * dev.kcshare.core.cost.CostReport#of}.
   */
  public Optional<SessionCost> sessionCost() {
    return row == null ? Optional.empty() : Optional.ofNullable(row.cost());
  }

  static ServerVerdict of(ConfiguredServer server, EvidenceAssembly.Assembled a, Verdict v) {
    return new ServerVerdict(server, a.evidence(), v, a.row(), a.identitiesAgree());
  }
}
