package dev.kcshare.embed;

import dev.kcshare.core.cost.SessionCost;
import dev.kcshare.core.records.CacheRow;
import dev.kcshare.core.verdict.Evidence;
import dev.kcshare.core.verdict.Verdict;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One configured server's verdict with the evidence behind it. Obtained from {@link
 * Shareability#verdicts}; immutable.
 *
 * @param server the configured server
 * @param verdict the verdict: strength, reasons, recommendations
 * @param evidence the evidence the verdict was assessed from (config facts, observed hazards, the
 *     stored pre-flight)
 * @param row the verdict-cache row the evidence used, or null when none counted
 * @param identitiesAgree every definition resolves to the same execution identity
 */
public record ServerVerdict(
    ConfiguredServer server,
    Verdict verdict,
    Evidence evidence,
    @Nullable CacheRow row,
    boolean identitiesAgree) {
  /**
   * Validates.
   *
   * @throws NullPointerException if {@code server}, {@code verdict} or {@code evidence} is null
   */
  public ServerVerdict {
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(evidence, "evidence");
  }

  /**
   * The server name.
   *
   * @return the name
   */
  public String name() {
    return server.name();
  }

  /**
   * What one session's copy of this server costs, as measured by the pre-flight of the row the
   * evidence used; empty when never measured or not measurable here. Feed it, with the verdicts, to
   * {@link dev.kcshare.core.cost.CostReport#of}.
   *
   * @return the measured session cost, if any
   */
  public Optional<SessionCost> sessionCost() {
    return row == null ? Optional.empty() : Optional.ofNullable(row.cost());
  }

  static ServerVerdict of(ConfiguredServer server, dev.kcshare.host.report.ServerVerdict v) {
    return new ServerVerdict(server, v.verdict(), v.evidence(), v.row(), v.identitiesAgree());
  }
}
