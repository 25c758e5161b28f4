package dev.kcshare.api;

import dev.kcshare.core.cost.SessionCost;
import dev.kcshare.core.verdict.Evidence;
import dev.kcshare.core.verdict.Verdict;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One configured server's verdict with the evidence behind it. Obtained from {@link
 * dev.kcshare.embed.Shareability#verdicts}; immutable.
 *
 * @param server the configured server
 * @param verdict the verdict: strength, reasons, recommendations
 * @param evidence the evidence the verdict was assessed from (config facts, observed hazards, the
 *     stored pre-flight)
 * @param measuredAt when the stored pre-flight the evidence used was measured (the verdict cache's
 *     {@code evaluatedAt}, to the nanosecond nearest the stored epoch seconds); empty when none
 *     counted
 * @param sessionCost what one session's copy of this server costs, as that pre-flight measured it;
 *     empty when never measured or not measurable here. Feed it, with the verdicts, to {@link
 *     dev.kcshare.core.cost.CostReport#of}
 * @param identitiesAgree every definition resolves to the same execution identity
 */
public record ServerVerdict(
    ConfiguredServer server,
    Verdict verdict,
    Evidence evidence,
    Optional<Instant> measuredAt,
    Optional<SessionCost> sessionCost,
    boolean identitiesAgree) {
  /**
   * Validates. kcshare builds these from the configured servers and the record files; a gateway
   * builds one only to hand its own rows to code that takes them (a test, a renderer).
   *
   * @param server the configured server
   * @param verdict the verdict: strength, reasons, recommendations
   * @param evidence the evidence the verdict was assessed from (config facts, observed hazards, the
   *     stored pre-flight)
   * @param measuredAt when the stored pre-flight the evidence used was measured (the verdict
   *     cache's {@code evaluatedAt}, to the nanosecond nearest the stored epoch seconds); empty
   *     when none counted
   * @param sessionCost what one session's copy of this server costs, as that pre-flight measured
   *     it; empty when never measured or not measurable here. Feed it, with the verdicts, to {@link
   *     dev.kcshare.core.cost.CostReport#of}
   * @param identitiesAgree every definition resolves to the same execution identity
   * @throws NullPointerException if an argument is null
   */
  public ServerVerdict {
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(evidence, "evidence");
    Objects.requireNonNull(measuredAt, "measuredAt");
    Objects.requireNonNull(sessionCost, "sessionCost");
  }

  /**
   * The server name.
   *
   * @return the name
   */
  public String name() {
    return server.name();
  }
}
